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
//     call graph). [Goroutines.Unique] gives the objects that exist at most
//     once, for condmustnot's lock proofs.
//   - [Order] (NewOrder): Order.Ordered(a, ga, b, gb) reports whether access
//     a run by goroutine ga and access b run by gb are ordered by
//     happens-before in every execution.
//
// # Happens-before
//
// Events are go statements, channel operations, WaitGroup.Add, Done and
// Wait, the closed branch of a comma-ok receive, and the branch an atomic
// operation takes only after reading a value another atomic operation
// stored. A dataflow over each function's CFG and the call graph gives, at
// each instruction, the events that may have run before it in its
// goroutine instance (may) and the acquires that completed before it on
// every path (acq). What happens after an access is then a least fixpoint
// (after.go), and every rule holds in every execution:
//
//   - inside a goroutine that runs once, program order: an event that
//     cannot have run before the access runs after it;
//   - a go statement after the access: the goroutine it starts, and every
//     goroutine that one starts, run after;
//   - an acquire (a receive, an unbuffered send, a blocking select without
//     buffered send cases, the closed branch of a receive, the observing
//     branch of an atomic operation) all of whose possible partners (the
//     sends or closes it may receive from, the receives that may take its
//     send, the atomic writes it may read) run after the access, leaving
//     out partners that run after the acquire itself;
//   - Wait, once an Add on its WaitGroup has completed before it, when a
//     Done that may release it runs after the access in the access's own
//     goroutine instance. This assumes the WaitGroup rule of its
//     documentation: Adds that start from a zero counter happen before the
//     Wait.
//   - inits run before every root; tests run one after another, except two
//     tests that both (may) call t.Parallel.
//
// Not modeled (pairs stay unordered, which is sound): the buffered
// channel's k-th receive before send k+C, Unlock before a later Lock
// (condmustnot proves mutual exclusion instead), sync.Once, sync.Cond,
// the part of a parallel test before its t.Parallel call (the whole test
// counts as parallel), timers' channels, context cancellation, and anything
// that needs values (a loop that runs once, a branch that is never taken).
package mhp
