// Package races runs the race funnel of Naik's thesis (chapter 2,
// Algorithms 2.1-2.6, Table 2.4) over the results of pointsto, escape, mhp
// and condmustnot.
//
// It takes a [pointsto.Result] and gives a [Result]: the ultimate race
// pairs and the count of access pairs after each stage:
//
//   - original: two accesses to the same field, element, map, global or
//     kind of object, at least one a write, each reached by some goroutine;
//   - aliasing: on the same abstract location (races.dl gives accessLoc,
//     the locations each access touches in each goroutine, and whether it
//     reads or writes each); two accesses to disjoint elements of an array
//     that no slicing reaches at an offset (constant indices, copy into or
//     from s[lo:hi] with constant bounds) touch distinct memory; two
//     accesses through the result of one allocating instruction touch
//     distinct objects in distinct goroutines; two atomic accesses never
//     race;
//   - escaping: on an object another goroutine can reach (package escape:
//     thread escape); and a goroutine pair (g1, g2), g1 = g2 included, only
//     on a location an instance of g1 or one of g2 reaches objects of
//     without having allocated them (instance escape, instances.go): a
//     pair all of whose goroutines are private on its location goes here,
//     the goroutine pairs of two private goroutines of the others once the
//     parallel stage has made their goroutine pairs (a pair left with none
//     counts there);
//   - parallel: not ordered by happens-before (package mhp), asked once
//     per access pair and pair of goroutines, whatever the locations;
//   - unlocked: not both under one lock (package condmustnot): first with
//     the locks held wherever each access runs, then, for the pairs left,
//     per pair of goroutines with the locks held where each goroutine runs
//     its access (a helper whose callers in one goroutine all hold a lock
//     that a caller in another does not), and a lock's objects those its
//     pointer may be in the contexts where the goroutine runs the
//     pointer's function (mhp's threadReach), asked only where both hold
//     a lock (every rule of condmustnot.dl reads a lock of each side); a
//     pair keeps only the goroutine pairs no lock protects, and the report shows each access's locks in
//     its goroutine ([Result.Held]) and, on each frame of its call path,
//     the locks held at the call ([Result.HeldAtCall]). Last, per call
//     path (callpaths.go): an access is kept apart from the other when
//     every call site of its function in its goroutine, up to a few call
//     levels, is ordered with the other access as a whole
//     (mhp.CallOrder.CallOrdered) or holds, on that path, a lock the other
//     holds (condmustnot.GoroutineLocksets.ViaCalls): a list's Init run
//     by a constructor before its go statement and later under the
//     cache's mutex. This joins the parallel and unlocked stages, and
//     counts in the unlocked one. Its answers read the other access, so
//     it proves the sides of one other access at a time and keeps their
//     answers only while it does (and a bounded number of them): its
//     memory does not grow with the pairs. Lock queries are asked only
//     for the sides that a walk taking as covered every call site where
//     the access holds some lock would prove: no query proves the
//     others.
//
// Two kinds of access are left out before pairing: an access to an object
// allocated in its activation before anything there may have handed the
// object on (no other goroutine can reach it yet;
// mhp.Handovers.BeforeHandover), and the `*x = *x` go/ssa emits for
// `return x` with a named result on the heap.
//
// A [Finder] runs the funnel over the results of one program's facts under
// several Sigmas (package demand), and over each program of a load
// (pointsto.Analyzer.Program), from several goroutines at once, classifying
// the accesses once (on another goroutine from NewFinder on, beside the
// first points-to run); the escape analysis, which needs only the
// points-to, runs on another goroutine from the start, beside the
// goroutines (mhp.dl) and the stages after, the locksets (the same) from
// the end of the escaping stage, beside the order's tail and the parallel
// stage, which leave a core idle, and the order of events
// (mhp.NewOrder), which needs the points-to and the goroutines, runs on
// another goroutine while the accesses, aliasing and escaping stages run. It can check only given pairs of accesses (the
// demand loop's later runs check the races before), and take the order's
// dataflow from the program's run before (FindAfter, mhp.Flow) where the
// events and the call graph are what they were. Which locations an access touches, and whether a
// pair survives each stage, does not depend on the other pairs checked:
// races.dl computes the locations that decide where a goroutine that runs
// alone, or an access outside the analyzed packages, matters (shared,
// touched) from all the accesses.
//
// Each stage can be turned off in [Options] for diagnosis. Races are
// reported when at least one access is in the packages the user named,
// whatever their module: standard-library packages and files named on the
// command line too (Options.Std widens that to every package; the code of
// an instance of a generic function is in its origin's package); accesses
// inside sync, sync/atomic and the runtime are never reported: those are
// modeled by their documented semantics.
package races
