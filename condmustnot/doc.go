// Package condmustnot proves that a common lock keeps two accesses apart:
// the lock-based conditional must-not-alias of Naik's thesis, chapter 3.
// Two accesses in different goroutines that touch the same location do not
// race if both hold the same lock, at least one of them exclusively.
//
// # What it takes and gives
//
// [Compute] takes a program's facts and its k-object-sensitive points-to
// and call graph ([pointsto.Result]) and gives [Locksets]: for each access,
// the locks that must be held there (on every path, in every calling
// context), each as the SSA value (V id) of the lock's address at the Lock
// call and whether it is held for reading.
//
// [Prove] takes the locksets, the objects that exist at most once in an
// execution (the caller decides which: globals, objects whose allocation
// runs once; mhp computes them), and the access pairs to check, and gives
// the pairs it proves protected, by the Datalog rules of condmustnot.dl.
//
// # The locksets
//
// A forward must dataflow over each function's SSA CFG (meet =
// intersection), interprocedural through the call graph:
//
//   - Lock and RLock (lockOp facts) add a lock; TryLock and TryRLock add it
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
//   - A call releases what its callees may release, transitively: their own
//     unlocks, deferred or not, and their callees' (a helper
//     "func unlock() { mu.Unlock() }", an Unlock through sync.Locker).
//     sync.Cond.Wait releases nothing: it takes the lock again before it
//     returns. A call adds the locks every callee holds on every return when
//     it starts holding none (a helper that locks and returns).
//   - defer mu.Unlock() releases at RunDefers, at function exit; the block a
//     recovered panic resumes in holds nothing.
//   - Defining an SSA value again (a loop) drops the Held keyed on it, and on
//     a FieldAddr of it, so a Held always means the value's current
//     definition in the current activation: the fine-grained proof relies on
//     it.
//   - A function's entry lockset is the intersection of the locksets at all
//     its call sites (a caller's Held keeps the caller's V id). Roots, go
//     statements' and deferred functions, functions called from the
//     synchronization primitives or the runtime, and functions no analyzed
//     call reaches start with nothing.
//
// The dataflow does not run in packages sync, sync/atomic, internal/sync,
// runtime and internal/runtime/...: their lock effects are the modeled
// lockOp call sites, so they hold no lockset; their calls back into user
// code (sync.Once.Do, sync.Map.Range) still count for what a call may
// release.
//
// # The proofs (condmustnot.dl)
//
// Of the thesis' four kinds of conditional must-not-alias, two are
// implemented:
//
//   - global locks: both accesses hold the lock through a pointer that
//     points to exactly one abstract object, and that object is unique
//     (exists once);
//   - fine-grained locks: each access reaches one location through &b.f and
//     holds the lock &b.g of the same SSA base b (s.mu.Lock(); s.x++): if
//     the two locations are the same, so are the two bases, and the locks.
//
// Medium-grained locks (the accessed object reached by loads from the
// lock's base, with disjoint reachability from distinct bases) and
// goroutine-disjoint objects are not implemented.
//
// # Limits
//
// Sound, with the points-to's own limits (pointsto's doc.go), except:
//
//   - A mutex locked in one goroutine and unlocked in another (Go allows
//     it): the locking goroutine is taken to hold it until its own unlock.
//   - Locks taken and released through sync.Locker, method values or
//     reflection are released but never added.
//
// Precision limits: a callee holds a caller's lock at entry only if every
// caller holds it through the same SSA value (a global; not s.mu in two
// methods); the fine-grained proof needs the very same base value, so
// q.mu.Lock(); q.x = 1 with q a captured variable (loaded twice) or a
// field loaded twice is not proved; recursion and the call-graph
// projection lose contexts.
package condmustnot
