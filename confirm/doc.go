// Package confirm is chordgo's companion dynamic checker: it runs the
// programs that reach each static race under Go's race detector and
// marks the race confirmed when the race detector reports it.
//
// # What it takes and gives
//
// [Confirm] takes the races of a report (reports.Race, as chordgo check
// -json prints them: two accesses with positions and the roots they are
// reached from) and, in [Options], how each root is run (a package's
// directory, a test or benchmark name, or a main package), and gives, per
// race, whether it was confirmed, the witness (the program, the test, the
// race detector's report, and for a directed run the schedule), or a note
// saying why not; and the misses: races the race detector reported, with
// an access in the packages analyzed, that match no static race. A miss is
// a soundness bug of chordgo (or an assumption of the README's Soundness
// section failing), to be made a testdata/races program.
//
// # Undirected runs
//
// Each program is built once with -race (go test -c, or go build for a
// main package) in its directory, with the analysis's build tags, and run
// with GORACE=halt_on_error=0: tests with -test.run selecting the races'
// roots (-test.bench for benchmarks) and -test.count N, a main package N
// times, stopping early once its races are all confirmed. Programs run one
// at a time. [Parse] reads the race detector's reports ("WARNING: DATA
// RACE" blocks: two accesses, each with its stack) and, from -test.v, the
// test that was running.
//
// # Matching
//
// A dynamic race confirms a static one when each static access's
// file:line is the position of a side of the report (either order). A
// side's position is its innermost frame outside the runtime's packages
// (map operations, append, copy and conversions are checked inside the
// runtime, at the caller's line) or its innermost frame in the packages
// analyzed (an access made inside a dependency, as reflect.Value.SetInt,
// is reported by chordgo at the caller's line). The race detector prints
// an atomic operation with sync/atomic frames only, losing its caller;
// such a side matches a static atomic access of the same operation, so
// the race is confirmed by its other position alone.
//
// # Directed runs
//
// A race that the race detector almost never sees (one access after a
// sleep, or the common schedule ordering the accesses by accident) is
// made to happen in the spirit of RaceFuzzer (Sen, PLDI 2008): the
// program is built with go build -overlay copies of the accesses' files
// in which "chordgoHook(mask, at0, at1, done); " is inserted before the
// statement of each access, and "; chordgoDone(mask)" after it if it is a
// simple statement, on its lines, so line numbers stay the same, and a
// file that declares the hook is added to the package (hook.go). at0 and
// at1 are the addresses of the accessed locations where taking them runs
// no code of the program (a field of a chain of variables, fields and
// pointer indirections, e.prev.next, in a statement that calls and
// receives nothing before the access; else nil), so that a hook placed by
// line holds a goroutine for the other side at the same address, not at
// another object the line touches. A goroutine that reaches one access
// while none waits at the other waits, at most Options.Wait, until a
// goroutine reaches the other at the same address (one at another address
// goes on); then one goes first, and the other follows right after the
// first's statement, when chordgoDone follows it, or else 50µs later.
// Which goes first alternates between the processes of a race: the later
// one (the held one is often a test or main about to return), then the
// held one (the race detector keeps only each goroutine's last access to
// a location and forgets them all once it reports a race on it, so the
// first access must not race with what the other goroutine did there
// before). From then on every goroutine passes. A wait in vain re-arms
// the hook, up to five times per access: the first arrivals are often in
// setup code that runs before the other goroutine exists. The hook's
// state is read and written with plain loads and stores in //go:norace
// functions, and it calls only the runtime's clock (runtime.nanotime),
// runtime.Gosched and a raw write(2) system call to print its schedule,
// none of which the race detector counts as synchronization (sync/atomic,
// os.File writes and fmt would be: syscall.Write's ReleaseMerge,
// sync.Pool; it reads its order from the environment while the package is
// initialized): the hook orders no two accesses of the program, so it
// hides no race and creates none. Nor does its waiting make the race
// detector forget accesses: its loops call nothing the race detector
// instruments (time.Now did: a loop calling it for milliseconds filled
// the race detector's trace, whose reset wiped every goroutine's earlier
// accesses; testdata/confirm/order). Its one call the race detector sees
// is a release on a variable of its own that nothing acquires, which
// orders nothing but starts a new epoch of the goroutine, so that the
// statement's accesses are recorded, not an earlier access of the
// location since the goroutine's last synchronization. The
// price of plain accesses is that two goroutines may now and then wait at
// one access at once; both go when the other side comes. A directed run
// is still evidence for its race only (its schedule is not the program's
// usual one), and the undirected runs are the ones that look for misses.
// Its bounded waits cannot deadlock a program by itself. The schedule it
// forces can: a program whose race lets one goroutine overwrite a mutex
// another is blocked on (testdata/races/mutex_reset_racy) hangs in it, so
// every process is killed after Options.RunTimeout, and what it reported
// before counts. A race not confirmed says in its note what the hooks of
// its last directed run did.
//
// A race gets no directed run, and says why in its note, when a hook
// cannot go right before its access on the same line: the access is in a
// statement that starts on an earlier line, in a loop's header (a hook
// before the loop would hold only the first iteration), outside function
// bodies, in GOROOT or the module cache (go build -overlay cannot replace
// those files), or the two accesses are in different packages (they would
// need one hook's state between them). A statement's own work before the
// access (calls among its operands) runs after the hook. Taking an
// address reads what the statement reads, and a nil pointer on the way
// panics at the hook, on the same line, rather than in the statement.
// Directed runs run each program 2N times, each a new process, as the
// hook acts once per process. The hook needs syscall.RawSyscall: Unix.
//
// Package confirm comes after reports in chordgo's data flow and is used
// by cmd/chordgo (chordgo confirm). Its overlay is written by package
// internal/overlay, which package racefree (chordgo racefree) uses too;
// racefree's tests compare the races reported with and without its
// overlay with [Parse].
package confirm
