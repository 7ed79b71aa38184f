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
// A [Planner] takes each program's final run of the demand loop
// ([demand.Result]: the points-to result with its call graph and the
// functions reached, and the races, which include every race a longer run
// would report), keeping only those sets, not the result, and [Planner.Plan]
// gives,
// for every function declaration of the packages named, whether it is
// marked and, if not, why ([Reason]) and which of its race-free loads and
// stores go through accessors (and why the others do not, [Skip]).
// [Write] writes the overlay file, the rewritten copies and the
// accessors' files (package internal/overlay). cmd/chordgo's racefree
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
//     it devirtualizes) is safe to inline: no body (assembly; not the
//     runtime's functions, which have none in SSA: pointsto builds no code
//     for the runtime), a package the compiler never instruments (sync,
//     sync/atomic), or, transitively
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
// # Accessors
//
// In a declaration that is not marked because an access of it races, or
// because it calls a function not safe to inline, or has a load or store
// chordgo does not model, each race-free load `e` (a variable go/ssa keeps
// in memory, a field selection, an index or a pointer indirection)
// becomes chordgoLoad(&e), and each
// race-free store `e = v` becomes chordgoStore(&e, v): generic
// //go:norace functions declared in a file added to the package, which
// the compiler never inlines in a -race build, so the caller's other
// accesses keep their checks (the digest's option B, section 7.4). Only
// where that is simple and keeps the order of evaluation (Skip counts the
// rest): the statement (an assignment, ++/--, return, or an if or for
// condition or switch tag) calls nothing but len and cap, receives
// nothing and declares no closure, so the accessor is the only call in it
// and the order of plain loads around it has no effect a program can see
// but which of two runtime panics comes first; every go/ssa load or store
// at the expression's position, in every variant and closure, is an
// access chordgo analyzed, reached, and in no race; a store is the one
// target of an = assignment whose value is not converted to an interface
// implicitly, on the line of its "=" (removing "=" keeps lines); a
// captured variable that the compiler captures by value (never assigned
// after its declaration, at most 128 bytes) is left: the compiled closure
// reads an unchecked copy, and &e would make the variable shared, on the
// heap, and checked. A read
// and a write at one position are rewritten only as the target of ++, --
// or an op-assignment whose operator cannot panic (+ - * & | ^ &^): `e
// op= v` becomes chordgoAdd(&e, v) and the like, and `e++`
// chordgoAdd(&e, 1), which evaluate e's address, then v, then read,
// compute and write, as the statement does (/, % and shifts may panic,
// and the panic's top frame would be the accessor's). The insertions are
// within lines: line numbers stay, columns after an accessor on its line
// move, and gofmt may respace the copy.
//
// # Span redundancy
//
// RedCard's span redundancy (the digest's C1, section 2.7; span.go)
// removes checks chordgo did not prove needless: a load or store is
// covered when, on every path to it in its function, an earlier load or
// store of the same location (the same address computation from the same
// SSA values) has a kind at least as strong (a write covers a read or a
// write, a read a read) and no instruction that may release (every call
// but len, append and the like, go, defer, channel operations, panics)
// lies between. A covered load or store counts as race-free above: it
// goes through an accessor, and a function whose loads and stores are
// each race-free or covered is marked, as is a callee of a marked
// function. The race detector reports a race of a covered access at the
// access that covers it (span.go gives the argument and where it fails);
// Function.Covers lists them, and TestNoRaceLost counts a race found at
// a covering access as found. Locations are not followed through memory
// (a pointer loaded twice is two values), nor through loops by
// induction (RedCard's arrays), nor across calls (no release summaries).
//
// Package racefree comes after demand in chordgo's data flow and is used
// by cmd/chordgo.
package racefree
