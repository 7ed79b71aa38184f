// Package mhp decides which accesses may happen in parallel: the abstract
// goroutines of a program and Go's happens-before between them (Naik's
// thesis, section 2.4.3, with the Go memory model, go.dev/ref/mem, as the
// specification of happens-before).
//
// It takes the k-object-sensitive points-to and call graph of package
// pointsto and gives:
//
//   - [Goroutines] (FindGoroutines): abstract goroutines, the roots (tests,
//     main), the package inits, and one per go site and context of the
//     function that executes it (a go site of a callback the runtime runs
//     later, such as time.AfterFunc's, counts). For each: the functions it
//     runs (mhp.dl's threadReach), the goroutines that start it, the
//     programs it belongs to, and whether it is single (its go statement
//     runs at most once per execution: not in a loop, in a function that
//     runs at most once in its context, counted over the context-sensitive
//     call graph, and over all contexts by the call graph without them; a
//     function no two of whose call sites run in one execution, as the
//     subcommands of a tool chosen once, counts its busiest site's runs,
//     not their sum: exclusive.go). [Goroutines.Unique] gives the objects that exist at most
//     once, for condmustnot's lock proofs. A go site gets no goroutine in a
//     context where it never runs (deadgo.go): the function's parameters
//     are constants there (every call into a context that begins with its
//     call site passes the same constant, or a parameter of the caller
//     that is one in the caller's context), and constant propagation over
//     comparisons, phis and a field of a local allocation stored once
//     leaves the go statement's block unreached, or every call into the
//     context is from such an unreached block ("if ttl > 0 { go janitor()
//     }" in a constructor called with ttl 0).
//   - [Order] (NewOrder): Order.Pair(a, b).Ordered(ga, gb) reports whether
//     access a run by goroutine ga and access b run by gb are ordered by
//     happens-before in every execution (a [Pair] keeps what depends on
//     the two accesses alone, for the many goroutine pairs asked about);
//     Order.CallOrder(b, gb).CallOrdered(call, ga) whether everything ga
//     runs inside a plain call is (b before the call starts, or the call's
//     return before b), for package races' proofs per call path
//     (callorder.go). Its dataflow (may and acq, below) reads only the
//     events and the context-insensitive call graph; a later demand run
//     whose events and call graph are equal to the run before's takes that
//     run's dataflow (Order.Flow) instead of computing it again.
//
// # Happens-before
//
// Events are go statements, channel operations, WaitGroup.Add, Done and
// Wait, Once.Do, Lock and Unlock of a sync.Mutex (or a sync.RWMutex's write lock),
// the closed branch of a comma-ok receive, and the branch an atomic
// operation takes only after reading a value another atomic operation
// stored. A dataflow over each function's CFG and the call graph gives, at
// each instruction, the events that may have run before it in its
// goroutine instance (may) and the acquires that completed before it on
// every path (acq). Deferred calls run at a return or where a panic or
// runtime.Goexit starts (at an instruction that may panic, a call
// included; a receive never panics) that need not end the program
// (unwind.go: a frame of the goroutine may recover, or the call may run
// runtime.Goexit): they, and the code after a recovered
// panic, get what completed at every such point, and a deferred acquire
// counts at a return only if its defer statement ran on every path there.
// What happens after an access is then a least fixpoint (after.go), and
// every rule holds in every execution:
//
//   - inside a goroutine that runs once, program order: an event that
//     cannot have run before the access runs after it;
//   - a go statement after the access: the goroutine it starts, and every
//     goroutine that one starts, run after. This is decided per goroutine
//     started, over the goroutines that may run the go statement in its
//     context. A callback that a function registers with the runtime
//     inside its own package (time.AfterFunc's, through time.newTimer)
//     starts at each call of that function, in the caller: the runtime
//     cannot run it before the call;
//   - so does the goroutine of a spawn helper (pointsto's spawnClosure:
//     wg.Go(f), errgroup's g.Go(f)), whose go statement is the last thing
//     it does and which defers nothing, each of whose calls pointsto sees
//     as a plain call and runs in a context of its own: it starts inside
//     one of the calls that enter its context, each an event in the
//     caller (spawncall.go), so it starts after the access once each of
//     those calls does, or none of them may have run before the access in
//     its single goroutine; and a Wait waits for it when no such call may
//     have run before the Wait (nor the helper's own code before the go
//     statement). A call of WaitGroup.Go is an Add on its receiver in the
//     caller: Go adds 1 before it starts f;
//   - an acquire (a receive, an unbuffered send, a blocking select without
//     buffered send cases, the closed branch of a receive, the observing
//     branch of an atomic operation) all of whose possible partners (the
//     sends or closes it may receive from, the receives that may take its
//     send, the atomic writes it may read) run after the access, leaving
//     out partners that run after the acquire itself. A select is one
//     only if every case that can complete has a partner we see: a case
//     without partners on channels made in code we analyze and never
//     handed to code we do not see (mhp.dl's openCase: an argument of a
//     function without a Go body, or behind an unsafe.Pointer, as
//     reflect takes it) cannot complete, and a case on a channel the
//     points-to finds nothing for (a Ticker's C) may;
//   - a Lock p of a mutex that a Lock L0 of the same mutex happens before
//     (same pointer, L0 earlier in the activation; or one mutex object
//     that exists once, L0 earlier in p's goroutine instance or before
//     the go statements that start it), when every Unlock that may unlock
//     that mutex, save those after p, runs after the access: p returns
//     only after an Unlock (the memory model's n-th Unlock before the
//     m-th Lock returns, n < m). Not for a mutex that a go statement may
//     unlock or a write that is not atomic may touch;
//   - Wait, once an Add on its WaitGroup has completed before it, when a
//     Done that may release it runs after the access in the access's own
//     goroutine instance. The Add and the Wait must use one abstract
//     WaitGroup that stands for one concrete one (Unique): an Add that may
//     be on another group (the one inside WaitGroup.Go, called on two
//     groups) or on another instance (a WaitGroup made in a loop) counts
//     nothing this Wait waits for. This assumes the WaitGroup rule of its
//     documentation: Adds that start from a zero counter happen before the
//     Wait.
//   - Once.Do on a Once object that exists once and that no plain write
//     resets returns after every access inside the one run of its f (a
//     function all of whose calls come from that f, directly or through
//     such functions), and two accesses inside that run are in one
//     goroutine (once.go);
//   - a Once that is a field of the object an access reaches its location
//     through (that Once may stand for many: the location names which),
//     when no plain write resets it: access a inside its f (a literal
//     given to a Do on that field of the object, p.once.Do(func() { p.x =
//     1 }), or a method whose every call comes from its bound method
//     values, each made only as the f of a Do on that field of the
//     receiver it binds, p.once.Do(p.build), and a made through the
//     receiver) happens before access b made through a value after a Do
//     on the same field of that value returned, in b's function or in a
//     static call on it that does the Do before each return (p.Build();
//     onceDone); two accesses inside such fs on the same field run in f's
//     one run (sameOnceObject);
//   - a WaitGroup in the object both accesses reach their location
//     through (a singleflight-style call): a in the activation that
//     allocated the object and counted it with Add before handing it on,
//     or in the one activation of a helper the object was handed to (a
//     parameter bound only to fresh allocations, each handed to one call;
//     owned.go), or in function literals that activation calls, defers or
//     gives to Once.Do (lift); every Done that may use the WaitGroup after
//     a there, and b after a Wait on that WaitGroup of the same object
//     (waitgroup.go);
//   - a WaitGroup in the object both accesses reach their location
//     through, counting goroutines (errgroup's Go and Wait): a in a
//     goroutine whose literal defers a Done on that object's WaitGroup and
//     is started right after an Add on it, b after a Wait on it in the one
//     goroutine that starts a's, with no start between that Wait and b:
//     whichever of the start and the Wait came first orders a and b
//     (countedGoroutine). The location names the concrete WaitGroup, so
//     none need be Unique;
//   - a WaitGroup in an object that a helper's go statement counts and
//     another helper waits on, for any location (errgroup's Go and Wait
//     around results[i]): a in a goroutine started only by go statement S
//     of helper Mg, right after an Add on field f of Mg's parameter, whose
//     literal defers, once and first, a Done on that field that runs last;
//     every call of Mg that b's single goroutine makes in the goroutine's
//     context is in one function W that runs once, on one value v, and b
//     follows a Wait on field f of v in W (or a call of W, which waits
//     before each return), with no call of Mg between (groupwait.go;
//     also for a whole call, CallOrdered);
//   - inits run before every root; tests run one after another, except two
//     tests that both (may) call t.Parallel; so do the goroutines that
//     the testing package starts and waits for (t.Run's subtests, a
//     benchmark's runs, RunParallel's goroutines) inside two such tests,
//     and inside one test those that nest like calls: no parallel subtest
//     or RunParallel goroutine between the test and either, nor both
//     (subtests.go);
//   - joins of goroutines started in a loop (join.go), by a Wait on a
//     WaitGroup that an Add before the go statement raised, or by a
//     receive, right after the go statement, from a channel made anew for
//     that run and handed to the goroutine, whose partners all follow the
//     access in it: a later access of the starting goroutine with no way
//     back to the go statement that skips the join (Order.joined), two
//     instances of the goroutine when every way from the go statement back
//     to itself passes a join (selfJoined), and an access after a Wait in
//     a goroutine started after every run of the first's go statement (or
//     after the join of the earlier runs) (waitedFor);
//   - joins inside a function W that the single parent runs many times
//     (calljoin.go): a Wait on a WaitGroup of W's activation (or made in
//     W's loop) on every way from the go statement, or from the call of
//     WaitGroup.Go, to W's returns; the parent's accesses outside W, and
//     instances of the goroutine from two activations, are ordered
//     (joinedInCall), when nothing on the stack can recover a panic past
//     the go statement;
//   - chains: goroutines that start one another at most once per instance,
//     after the access, from one first start (a timer callback that re-arms
//     itself), run one after another (chained);
//   - drained goroutines (drained.go): a goroutine handed a channel made
//     anew for its start, which only it closes, lies inside the window
//     from its go statement to a receive that sees the close, where every
//     way on passes such a receive (range over the channel), in the
//     function that starts it or in every caller of a function that
//     starts it and returns the channel (a checker: Tx.Check); the
//     function holding the window neither recovers a panic nor runs
//     runtime.Goexit. Its accesses before its close are ordered with
//     what its single parent does outside every window (not between the
//     call and the receive, nor in what is called there); when its
//     parent is itself drained and closes only after the windows end,
//     with what that one is ordered with; and with other instances of
//     itself when windows do not nest.
//
// A send on a buffered channel that exists once, at least the (R+C)-th on
// every path when at most R receives can happen (each receive site runs at
// most once) and C is the capacity, completes after every receive: the
// memory model's k-th receive before send k+C (countedSends). The values
// an atomic Load waits for include pointers that are never nil (notNil). Code that never runs, and loops whose body runs at most once,
// come from pointsto (Facts.Live, Facts.Repeats).
//
// Besides happens-before, two accesses through one value of one function
// that holds a different object in each activation (a fresh allocation,
// or a parameter bound only to fresh allocations each handed to one call),
// or whose object came to the activation of one by plain calls from the
// activation that allocated it, run in one goroutine (oneActivation).
//
// Besides happens-before, two accesses in one function that only the
// branch taken when an atomic Add on a counter returns a constant can
// reach run in one goroutine: the counter exists once and only Adds of
// one sign change it after its initial value, so the Adds return
// distinct values and one at most enters the branch (the last goroutine
// out closes the door; lastout.go).
//
// A counted last goroutine out (counted.go) orders more: access a before
// a plain call of an atomic Add on such a counter, in a's function, and b
// after a channel acquire whose partners all lie in the door, when the
// counter starts at a constant, every Add adds one constant d, and the
// Adds can run at most (K-I)/d times (counted over the call graph from
// the roots, loops by their constant trip counts): the door opens only
// after every Add, and the count is tight, so a's activation made its Add.
//
// [Handovers.BeforeHandover] (handover.go) gives the accesses of a
// function to an object its activation allocated, made before anything
// there may have handed the object on (a send, a store of its address, a
// call): they happen before every other goroutine's access to it (the
// send before the receive that completes; a plain publication that orders
// nothing races itself and is reported), so package races leaves them out
// before pairing. An object made, filled across branches and then sent is the
// common shape. A plain static call of a function whose parameter keeps
// the object (only accesses it, or passes it to such parameters) hands
// nothing on; and Order orders the accesses of such a function through a
// parameter that every call binds to an object its caller has not handed
// on yet (handedLater: a constructor that fills its object through
// methods).
//
// Besides happens-before, two accesses to an object published by an
// atomic store (publish.go): one made before the store, through a value
// that holds a fresh object of its activation (allocated there, or
// returned fresh by a callee) which leaves the activation only through
// atomic stores of a Value or Pointer that the access does not follow, and
// the other made likewise, or through a value an atomic Load (or Swap) of
// a Value or Pointer returned, when every atomic store of the program that
// may store a value of that type stores such a fresh object or a loaded
// value (copy-on-write maps behind an atomic.Value). The load synchronizes
// with the store it reads, which follows the first publication.
//
// Besides happens-before, two goroutines of one go statement that runs at
// most once in an execution (its function runs at most once over all its
// contexts, and it is not in a loop) never both run: it starts one.
// Likewise two accesses below two branches of a function that runs once
// that one call of it never both takes (two callees of one call, two
// sites that cannot reach each other in its CFG), in every context and
// goroutine that runs them: a dominator tree over (goroutine, context,
// function) nodes finds the function (exclusive.go).
//
// Besides happens-before, two accesses of one function literal that runs
// in at most one instance of a goroutine are ordered: the literal is
// handed once to one call of a function whose go statement starts the
// goroutine to call it (errgroup's and WaitGroup's Go; handed.go).
//
// Besides happens-before, Order.Apart (instances.go) tells two instances of
// one go statement apart when they reach a location through a value that
// differs at every run of the statement: an object allocated anew before
// each run, or a loop counter indexing a whole array (the counter of
// for i := 0; i < n; i++ with any n of i's type, or the index of
// for i := range s: a step of 1 under i < n never wraps). Likewise for a
// function literal made in such a loop and handed to errgroup's or
// WaitGroup's Go, each value once: each goroutine calls the one value its
// Go call was handed, so two goroutines run two values, made in two
// iterations, whose captured indexes differ (handedApart).
//
// # Termination and work
//
// Every fixpoint and search carries, next to it, why it ends: a worklist
// or round-robin dataflow over a finite lattice in which each set only
// grows or only shrinks, or a search that visits each goroutine once.
// The work is polynomial in the goroutines, events, functions and blocks;
// what Ordered asks again and again is memoized: after per goroutine and
// the members of may that its fixpoint tests (so functions and stretches
// of functions with the same such members share one fixpoint), the rules
// on the accesses alone per Pair, oncePerInstance, each goroutine's chain closure,
// and chained's conditions per pair of distinct closures (chainOf: asked
// anew for every query, it made the default run on a ring of goroutines
// that start one another slow, issue 10). [Order.Work] counts the steps,
// for tests to bound (demand.TestChainWork).
//
// Not modeled (pairs stay unordered, which is sound): the buffered
// channel's k-th receive before send k+C elsewhere (condmustnot proves a
// channel of capacity 1 used as a lock), Unlock before a Lock that no Lock is known to
// precede (condmustnot proves mutual exclusion instead), RLock and
// RUnlock, a sync.Once that may stand for several (a field of objects
// made in a loop) or whose f is also called elsewhere, but for accesses
// through the object it is a field of (not what its f writes into other
// objects, as the functions and blocks go/ssa's Package.build fills; nor
// that a Do after a completed Do on the same Once runs nothing), sync.Cond, the part of a parallel test before its
// t.Parallel call (the whole test counts as parallel), timers' channels, a
// timer stopped and reset (its callback counts from the AfterFunc call),
// context cancellation, and values other than constants (a flag set under
// a lock, a counter compared with a bound that is not constant).
package mhp
