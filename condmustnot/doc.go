// Package condmustnot proves that a common lock keeps two accesses apart:
// the lock-based conditional must-not-alias of Naik's thesis, chapter 3.
// Two accesses in different goroutines that touch the same location do not
// race if both hold the same lock, at least one of them exclusively. A lock
// is a sync.Mutex or RWMutex, or a channel of capacity 1 used as one (a
// send takes it, a receive releases it).
//
// # What it takes and gives
//
// [Compute] takes a program's facts and its k-object-sensitive points-to
// and call graph ([pointsto.Result]) and gives [Locksets]: for each access,
// the locks that must be held there (on every path, in every calling
// context), each as the SSA value (V id) of the lock's address at the Lock
// call (of the channel at the send) and whether it is held for reading.
//
// [Prove] takes the locksets, the objects that exist at most once in an
// execution (the caller decides which: globals, objects whose allocation
// runs once; mhp computes them), and the access pairs to check, and gives
// the pairs it proves protected, by the Datalog rules of condmustnot.dl.
// For the medium-grained proof it also reads the points-to the locksets
// were computed from (pt, and the store and copy facts). Each proof's
// database, inputs and results, goes to that points-to result's Record
// when it is set (chordgo facts writes the inputs).
//
// # The locksets
//
// A forward must dataflow over each function's SSA CFG (meet =
// intersection), interprocedural through the call graph:
//
//   - Lock and RLock (lockOp facts) add a lock; all the Lock calls of one
//     function through &x.g, for one SSA value x and field g, add it under
//     one pointer (x is defined once per activation, so every &x.g is one
//     address): "c.mu.Lock(); if d > 0 { c.mu.Unlock(); sleep(d);
//     c.mu.Lock() }" holds c.mu after the branch. TryLock and TryRLock add it
//     on the true edge of an If, in the call's block, whose condition is
//     the call's result: "if mu.TryLock()", "if !mu.TryLock()" (SSA swaps
//     the branches), "ok := mu.TryLock(); if ok", the first operand of &&
//     and ||. A result that reaches the If through a Phi (a variable
//     assigned on several paths) or another instruction (ok == true, a
//     negation stored in a variable) adds nothing.
//   - Unlock and RUnlock release every held lock whose objects (points-to in
//     any context) may overlap the released pointer's; a pointer that points
//     to nothing releases everything. A lock pointer that points to nothing
//     is never added.
//   - A send on a channel that may be one made by make with the constant
//     capacity 1 adds it (a channel Held); the send case of a select adds
//     it on the true edge of the If that tests for that case, when nothing
//     runs between the select and the If (go/ssa's layout). A receive, a
//     range step, or a select with a receive case (whichever case it
//     takes) releases the channel Helds its channel may overlap; a channel
//     that points to nothing releases every channel Held. The edge of a
//     select's receive case is never taken when its channel may be some
//     channel, every channel it may be was made by make in the analyzed
//     code, and nothing sends on or closes them: a dead edge carries
//     nothing. (A channel that points to nothing may be nil, but also one
//     the points-to lost, such as time.Tick's: its case may be chosen.)
//   - A call releases what its callees may release, transitively: their own
//     unlocks and receives, deferred or not, and their callees' (a helper
//     "func unlock() { mu.Unlock() }", an Unlock through sync.Locker).
//     sync.Cond.Wait releases nothing: it takes the lock again before it
//     returns. A call adds the locks every callee holds on every return when
//     it starts holding none (a helper that locks and returns), except a
//     Held of one of the caller's own values, which names another
//     activation of the caller's (recursion).
//   - defer mu.Unlock() releases at RunDefers, at function exit; the block a
//     recovered panic resumes in holds nothing.
//   - Defining an SSA value again (a loop) drops the Held keyed on it, and on
//     a FieldAddr of it, so a Held always means the value's current
//     definition in the current activation: the fine- and medium-grained
//     proofs rely on it.
//   - A function's entry lockset is the intersection of the locksets at all
//     its call sites (a caller's Held keeps the caller's V id). A lock held
//     at &x.g, x passed as the callee's parameter p, is also passed as the
//     entry lock &p.g (the callee's view of the same mutex: p is x's value
//     for the whole activation), so a lock that each caller takes through
//     its own value (Add and Replace each lock c.mu and call c.set) is
//     held in the callee, relative to its receiver, and the fine- and
//     medium-grained proofs see it on the callee's own base. A Held of the
//     callee's own values that is not made at the call is dropped: it
//     would name the caller's activation in the callee's (recursion). Roots, go
//     statements' and deferred functions, functions called from the
//     synchronization primitives or the runtime, and functions no analyzed
//     call reaches start with nothing.
//
// GoroutineLocksets.ViaCalls gives the lockset at an access along one
// chain of call sites in a goroutine, each callee entered with what its
// one call in the chain holds rather than the meet over all its calls
// (callpaths.go): package races proves an access per call path with it.
//
// Locksets.ByGoroutine gives the same dataflow per abstract goroutine, on
// demand: a function's entry lockset in goroutine g is met over the calls
// made in g only (a call stack belongs to one goroutine), each from its
// caller's entry lockset in g, with the global entry for a function on a
// cycle of calls. Before the meet, a Held whose pointer, in the contexts in which g
// runs the pointer's function (mhp's threadReach), points to one unique
// object only also counts as that object's lock (an object lock): so a
// list's helper that Add and Get of a cache each call with their own c.mu
// held holds the cache's mutex in a goroutine where c can only be one
// cache (a test's cache, in the test's root context). Prove and
// ProveInstances then decide pairs of instances, an access with the locks
// of one goroutine and the contexts it runs in: a global lock's pointer
// needs to point to one unique object only in the contexts where that
// goroutine runs the pointer's function, so "go worker(&m1, &x); go
// worker(&m2, &y)", worker locking its first parameter, holds m1 in the
// first goroutine and m2 in the second (each go statement's call site
// begins the context of the function it starts).
//
// The dataflow does not run in packages sync, sync/atomic, internal/sync,
// runtime and internal/runtime/...: their lock effects are the modeled
// lockOp call sites, so they hold no lockset; their calls back into user
// code (sync.Once.Do, sync.Map.Range) still count for what a call may
// release.
//
// # The proofs (condmustnot.dl)
//
// Of the thesis' four kinds of conditional must-not-alias, three are
// implemented:
//
//   - global locks: both accesses hold the lock through a pointer that
//     points to exactly one abstract object (where the access's goroutine
//     runs the pointer's function, for an instance), and that object is
//     unique (exists once); a channel counts only if it is a channel-lock
//     (below), and holds exclusively;
//   - fine-grained locks: each access reaches one location through &b.f and
//     holds the lock &b.g of the same SSA base b (s.mu.Lock(); s.x++): if
//     the two locations are the same, so are the two bases, and the locks;
//   - medium-grained locks: each access reaches one location inside the
//     object that c = b.f refers to (c itself as a map or pointer, &c.x,
//     &c[i] and chains of them, c a pointer, slice or map loaded from
//     field f of b in the access's function) and holds the lock &b.g of
//     the same SSA value b (t.mu.Lock(); t.m[k]++, or Naik's ve := vt.f1;
//     vt.mu.Lock(); ve.f2++), and field f has disjoint reachability for
//     the objects both c's may point to: no object is ever referred to by
//     two objects' fields f. That is proved per allocation site h: the
//     only store the points-to knows that may put a reference to (or into)
//     an object of h into a location of field f (a store whose pointer may
//     point to such a location and whose value to such an object, in one
//     context) is one Store instruction of the allocation's own result (a
//     heap Alloc, MakeMap or MakeSlice, or a slice of it) that runs at most
//     once per run of the allocation, or of a parameter that the
//     allocation's objects reach at most once each (one call site may pass
//     them, not repeated in its function, passing the allocation made
//     there or such a parameter of its own: New allocating a map for
//     newCache(m) to store), and no copy of a whole struct or
//     array value (load, store, boxing, copy, append) may copy a struct
//     with field f. The typical case is &T{c: &C{}} or t.m = make(...) in
//     T's constructor. The reasoning counts instructions, never concrete
//     objects, so one abstract object for many concrete ones does not
//     weaken it; condmustnot.dl has the proof.
//
// Goroutine-disjoint objects (Naik's thrd = this) are not implemented here;
// mhp's Order.Apart proves a Go form of them for objects allocated
// anew before every run of a go statement.
//
// A channel-lock is a unique channel made with the constant capacity 1,
// that nothing may close, and that every receive (a select's receive case
// included) takes from while its goroutine holds it: a channel Held at the
// receive on the receive's own channel value, or on a value that points
// only to that channel. Then, by the Go memory model's rule for buffered
// channels (the k-th receive is synchronized before the (k+C)-th send
// completes), two accesses that each run while their goroutine holds the
// channel are ordered in every execution; condmustnot.dl has the proof.
// TestNoRaceChanMutex of Go's race tests is the pattern.
//
// # Limits
//
// Sound, with the points-to's own limits (pointsto's doc.go), except:
//
//   - A mutex locked in one goroutine and unlocked in another (Go allows
//     it): the locking goroutine is taken to hold it until its own unlock.
//   - Locks taken and released through sync.Locker, method values or
//     reflection are released but never added.
//   - Sends, receives and closes that no analyzed code makes (reflect's
//     Value.Send, Recv, Close and Select, the runtime's) are not seen: a
//     channel-lock or a never-chosen select case may be wrong then. So is
//     a channel-lock received from through a value the points-to lost
//     (made through unsafe): a receive through a channel that points to
//     nothing is taken to be from nil (context's emptyCtx.Done gives one).
//
// The medium-grained proof relies on the points-to seeing every write of a
// pointer into a struct field: a write through unsafe or reflect, or by a
// function that is not analyzed (reflect.Copy, typedmemmove), that puts an
// object into a second holder's field is not seen.
//
// Precision limits: a receive in a deferred function (defer unlock()) never
// holds the channel (deferred functions start holding nothing), so the
// channel is not a channel-lock. A channel is only a global lock, never a
// fine-grained one: a channel in a struct field is loaded anew at each use,
// and the field may change between loads. A channel of capacity C > 1 lets
// C holders in at once and is never a lock. A callee holds a caller's lock
// at entry only if every
// caller holds it through the same SSA value (a global; not s.mu in two
// methods), through its own parameter (an entry lock), or, per goroutine,
// as one unique object (an object lock: not a mutex of one of several
// caches a goroutine may use); the fine-grained proof needs the very same base value, so
// q.mu.Lock(); q.x = 1 with q a captured variable (loaded twice) or a
// field loaded twice is not proved; recursion and the call-graph
// projection lose contexts. The medium-grained proof follows one field (not
// t.a.b), needs the lock and the load on the same SSA value b in the
// access's function, gives up on a field that two stores may fill with one
// site's objects (two constructors of T storing the same kind of C, a
// C allocated by a callee, t.c = newC()),
// and on a struct that some code copies by value (a value-receiver method
// called on *t, fmt.Println(*t)).
package condmustnot
