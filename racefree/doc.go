// Package racefree turns chordgo's proof of race freedom into fewer checks
// of Go's race detector (issue 14, part 3): it writes a go build -overlay
// under which go test -race compiles the functions chordgo proved
// race-free with //go:norace. This is condition C4 of the dynamic seeds'
// digest (../shared/seeds/dynamic-seeds-digest.md, section 6): a check
// can go when a sound over-approximation of the detector's races has no
// pair containing its access; RedCard's own seed (section 2.9) measures
// Chord-style race freedom as such a source of needless checks.
//
// # What it takes and gives
//
// [Plan] takes the demand loop's last completed run ([demand.Result]: the
// points-to result with its call graph and the functions reached, and the
// races, which include every race a longer run would report) and gives,
// for every function declaration of the packages named, whether it is
// marked and, if not, why ([Reason]). [Write] writes the overlay file and
// the rewritten copies (package internal/overlay). cmd/chordgo's racefree
// command runs check's pipeline and then these two.
//
// # What is marked
//
// The race-free accesses are the complement of the ultimate races over
// the loads and stores of the packages named: chordgo reports every race
// with an access there (races.Options), so an access of those packages in
// no race is proven race-free, under the README's soundness assumptions.
// //go:norace applies to a function's body: it drops the checks of the
// body's loads and stores and of every callee the compiler inlines into
// it (an inlined body loses its instrumentation), and leaves alone the
// checks the runtime makes (maps, channels, append, copy, conversions),
// sync/atomic operations, and closures and go statements' functions,
// which are compiled apart. So a declaration is marked only when
//
//   - it is not generic (one compiled body, by GC shape, serves instances
//     chordgo analyzes apart) and its file can be replaced;
//   - one of its functions (a package and its test variant each have one)
//     is reached from a root, and so is every variant and closure of it
//     that has a load or store: unknown is not safe;
//   - no access of it or of its closures is in a race (either side), and
//     each of their loads and stores is an access chordgo analyzed, or one
//     of a variable go/ssa keeps off the heap, which no other goroutine can
//     reach;
//   - every function a call of it may reach (static callees, and what the
//     call graph says dynamic calls reach: the compiler inlines the calls
//     it devirtualizes) is safe to inline: no body (assembly), a package
//     the compiler never instruments (sync, sync/atomic), or, transitively
//     (mid-stack inlining), functions whose loads and stores are all
//     proven race-free. A function of another package with a load or store
//     is not safe: races between two accesses outside the packages named
//     are not reported, so they are unknown.
//
// Marking removes the checks of the marked function's own body, and of
// what is inlined into it; the callees that are not inlined keep theirs.
// A declaration with no load or store of its own is left, as marking it
// would only drop its frame from race reports.
//
// # Line numbers
//
// "//go:norace" must start the line before the func keyword, which would
// move every later line; the copy adds a //line directive after it that
// gives the func keyword its position in the file, so every later token
// has the line (and column) it has on disk: race reports, panics and
// coverage name the same lines. The copy is gofmt-stable.
//
// # Not done
//
// Single race-free accesses in functions that cannot be marked (the
// digest's per-access //go:norace accessors, section 7.4 B) and RedCard's
// span redundancy (C1) are not rewritten: the reasons functions are not
// marked are counted instead (chordgo racefree -v).
//
// Package racefree comes after demand in chordgo's data flow and is used
// by cmd/chordgo.
package racefree
