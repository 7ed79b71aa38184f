// Package demand raises k per allocation site on demand until false races
// stop falling away: the loop of Naik's thesis, chapter 4 (Figure 4.8,
// Tables 4.2-4.5).
//
// It takes a [pointsto.Analyzer] (loading, SSA, facts and the
// context-insensitive pass, which do not depend on Sigma and are computed
// once; [Analyze] makes one from package patterns) and gives the last run's points-to and races, the final Sigma, and
// per iteration the sites per k value (Table 4.3), the estimated and the
// enumerated size of the set A of abstract contexts and objects (Table
// 4.4), the race pairs (Table 4.5) and the time.
//
// [Each] runs the loop once per program (pointsto.Analyzer.Program: the
// test binary of each package, each main package), up to
// EachOptions.Workers programs at once (default GOMAXPROCS; MayStart lets
// a memory budget hold the next one back), and hands each program's
// result over as it is done; programs share no memory, so no race pairs
// accesses of two of them, and a program's result does not depend on the
// others nor on the order they run in. EachOptions.Programs takes a share
// of them (chordgo check -shard). The funnel's classification of the
// accesses is computed once and shared between the programs. When
// Options.Context ends, each program in progress gives its last completed
// run, and a [NotAnalyzedError] names the programs without one.
//
// Each iteration runs k-object-sensitive points-to under Sigma and the race
// funnel. The abstract objects of the remaining races (the object of each
// race's location), the objects holding them (a field, element or content
// pointing to them, a closure bound to them) and the objects in whose
// context a racing access touches them (a receiver, a closure), the
// objects in whose context a call through a function value or an
// interface may call a racing access's function, with the objects that
// function value is loaded from (a closure's captured variable: while it
// stands for several, the call runs callbacks that only other contexts
// pass), where not
// refined before and where their context does not repeat a site, give the
// next Sigma: every site in the object, allocation sites and the call
// sites that Go's hybrid contexts hold (DESIGN.md, section 3), gets k =
// the object's length + 1. Splitting by test root (pointsto.Sigma.Roots,
// kobj.dl) is given on demand the same way: the first run splits nothing,
// so a test's code is analyzed once however many tests reach it, and each
// later Sigma splits the root sites of those objects, of the objects the
// racing goroutines are spawned and start in, and of the objects on the
// heap paths from the objects a racing goroutine starts in to the raced
// ones: the objects through which one test's goroutine may reach another
// test's object. A site only joins Roots, so this adds at most one change
// per site to the loop's bound. The loop stops when Sigma
// does not change, or when Options.Patience runs in a row (default 2)
// removed no race pair: the false races have stopped falling away.
// Stopping early is sound, as every run is; it only keeps races a longer
// loop might drop.
//
// Four shortcuts save most of the loop's time:
//
//   - A run after the first checks only the access pairs of the previous
//     run's races (races.Finder), and reports those of them the whole
//     funnel would. A finer Sigma splits objects, contexts and goroutines,
//     so its funnel drops at least the pairs a coarser one dropped, and
//     the races are the loop's. Where a stage's proof is not monotone (a
//     lock that splits into two objects is no longer one global lock), a
//     pair may come back in the whole funnel; the shortcut keeps it out,
//     which is sound, as each run is: the earlier run proved it race-free.
//     The funnel counts (Table 2.4) are the first run's, the one over all
//     pairs.
//   - A run takes the previous run's dataflow of the order of events
//     (races.Finder.FindAfter, mhp.Flow) when its events and
//     context-insensitive call graph are the previous run's: the dataflow
//     reads nothing else, so it would be the same.
//   - A Sigma that splits no new site by root and whose raises cut no
//     context differently (every object and
//     call context of a site whose k changes was shorter than its old k)
//     makes the same contexts, so it would give the same points-to, races
//     and objects, and the loop would stop after it: it is not run, and
//     the last Sigma run is the one reported.
//   - A Sigma whose raises only lengthen contexts, splitting none (each
//     context the raised sites' objects and calls are made in leads to one
//     longer context: pointsto.Analyzer.Renames replays the contexts under
//     both Sigmas and checks that they pair one to one), gives the same
//     relations up to a renaming of contexts that keeps their sites and
//     root bases, which is all the funnel reads of them: the same races.
//     Such a run removes no race pair, so when the loop has already had
//     Patience-1 idle runs in a row, it would be the last: it is not run,
//     and the last Sigma run is the one reported (the race suite's fourth
//     run).
//
// Before each run, an estimate of |A| bounds the cost: a function has at
// most as many contexts of length n as the sum over its call sites of
// their callers' contexts of length n-1; an allocation site with k has
// as many objects as its function has contexts of length k-1, and a call
// that runs its callee in a context of its own (a plain call) as many
// contexts as its caller has of length k-1, each times the tests that
// reach it where it keeps a root base (a site split by root, a callee
// that may reach the allocation of one). The counts
// grow exponentially, so they are exact decimals
// (github.com/cockroachdb/apd). A run's estimate may pass neither
// Options.MaxContexts nor Options.MaxGrowth times the first run's
// (DefaultMaxGrowth, 2): the raises that would take it past are undone,
// the costliest first (what each alone adds to the estimate: splitting by
// root a site that most of net/http reaches gives each of those functions
// a context per test), and the sites undone are reported (Capped). A
// capped raise only leaves objects merged: the run is as sound as any.
// The same factor bounds a later run's instance escape stage, whose
// Datalog grows with the contexts each racing goroutine reaches (a root
// split multiplies them: promhttp's second run passed 8 GB there): past
// MaxGrowth times the first run's input (races.Result.InstanceWork) the
// stage does not run, which only keeps pairs it would remove.
//
// Options.Context stops the loop (a time or memory budget, an interrupt):
// at the start of a run, or between its points-to and its funnel, Run
// returns the last completed run's result with Stopped set, or an error if
// no run completed. Those races are sound, and include the ones a longer
// loop would report: each run's races include the next run's (the first
// shortcut above). Options.Completed receives the result after each
// completed run, for a caller that cannot wait for the next stopping point
// (a Datalog run does not stop midway). A run's result is kept while the
// next one runs only when a context can stop the loop and no such
// callback has it: with Completed set, a stopped result carries no
// points-to nor races, and the caller reports what Completed last
// received (chordgo check builds each run's report as it completes), so
// that the loop's peak is one run's, not two.
package demand
