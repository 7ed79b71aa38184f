// Package pointsto is the front end of chordgo's points-to analysis: it loads
// a Go program and turns it into relations over dense integer ids (the base
// facts) that Datalog rules evaluate.
//
// # What it takes and gives
//
// [Load] takes package patterns as go vet does (plus build tags, whether to
// include tests, and a -run regexp), loads them with golang.org/x/tools/go/packages,
// builds SSA once for them and all their dependencies (ssa.InstantiateGenerics:
// generic code is analyzed as its instances) except the runtime proper
// ([IsRuntime]: its code is not analyzed, so its functions get no bodies, as
// if loaded from export data, and its function bodies, but for init and
// generic functions, are dropped after parsing, so go/types checks only its
// declarations; the runtime is half the code of a program that imports only
// fmt), lets each package's syntax and type information go as soon as its
// SSA is built, and finds the roots:
//
//   - main.main of each main package (one program each; its package's init
//     runs first);
//   - each TestXxx(*testing.T), BenchmarkXxx(*testing.B), FuzzXxx(*testing.F)
//     and ExampleXxx() with an output comment of a test package, following go
//     test's naming rule (the character after the prefix is not lower-case),
//     and TestMain(*testing.M). All tests of one package (internal and
//     external test files) are one program; different packages' tests are
//     different programs. -run selects test roots by name like go test -run
//     (the part before the first '/'); it applies to benchmarks, fuzz targets
//     and examples too. Benchmarks are roots even though go test runs them
//     only with -bench.
//
// Each [Package] keeps its parsed files, with comments, and its module's
// directory, for the reports (//chordgo:ignore comments, file names
// relative to the module root).
//
// With tests, the test variant "p [p.test]" of a package replaces p (the
// synthesized test main is not analyzed). A package that fails to load or
// type-check is reported in [Program.Errors] with its first errors
// (file:line:col) and left out together with the packages importing it; Load
// fails only if nothing is left, or if [Config.Context] ends (it stops the go
// command, and SSA construction between packages). A go command that fails
// is reported as one line, what it printed.
//
// [Extract] takes the loaded [Program] and gives [Facts]: the domains below,
// each a dense range of uint32 ids with a description and, where meaningful,
// a source position, and the base relations below as sorted tuples of ids.
// [Facts.WriteDir] writes them as Souffle input (<rel>.facts, schema.dl) with
// one <Domain>.map file per domain for people. Ids are deterministic: the
// same program gives the same ids.
//
// Code that never runs gives no facts: sparse conditional constant
// propagation over each function's SSA (values.go) finds branches whose
// condition is the same constant in every run (x := 0; if x == 1 && ...,
// a load of a variable just allocated and not yet shared, a captured
// variable stored once before the closure is made, a field of a local
// allocation stored once and not shared before the load) and leaves the
// blocks only they lead to out. [LiveBlocks] runs the same propagation
// with some parameters known to be constants (mhp asks it per context,
// for go statements that never run there). [Facts.Live] and [Facts.Repeats] give later
// stages the same view: Repeats tells whether a block may run twice in one
// call, where a counting loop whose body runs at most once (for i := 0;
// i < 1; i++) does not count as a loop; [Facts.Loop] gives the counting
// loops (a constant step under a test against a constant or, with a step
// of 1 and <, any value; for i := range s too). A range over an array with at most
// one iteration variable reads nothing, though go/ssa loads the array
// there: Go does not evaluate such a range expression.
//
// # The analysis
//
// [NewAnalyzer] and [Analyzer.Run] give the k-object-sensitive points-to and
// context-sensitive call graph (Naik's thesis, sections 2.3-2.4 and 4.3-4.4)
// as a [Result]: pt(c, v, o), hpt(o, o2), callEdge(c, i, c2, m), reach(c, m),
// with [Result.PointsTo] and [Result.CallGraph] for the next stages. Two rule
// files, embedded, do the work, and run in Souffle too:
//
//   - ci.dl, context-insensitive Andersen with the same modeling, runs once
//     per program (it does not depend on Sigma); it leaves out the
//     points-to of values no rule reads (readVal: the addresses of fields
//     and elements code only loads or stores numbers through, half of its
//     pt facts on real code), which changes none of the relations the
//     analysis keeps of it (call, assertPass, dynType);
//   - kobj.dl, under a [Sigma] that gives k per allocation site and per call
//     site, runs in contexts that Go code (contexts.go) makes as kobj.dl
//     reaches functions: Datalog cannot build new context values, so runs
//     of kobj.dl alternate with Go making the contexts, objects and call
//     contexts of the (function, context) pairs the last run reached, and
//     adding them as facts, until a run reaches nothing new; the engine
//     continues each run from the last one's results (datalog.Database.Run).
//     Every fact made for a pair is joined with its reach in the rules, so
//     the result is what the same facts for all pairs would give; and
//     every pair kobj.dl reaches gets its facts. (Chord enumerates its
//     context domain beforehand from a cheaper pass; done that way, from
//     ci.dl's call graph and points-to, it made 25 times the contexts
//     kobj.dl reached on go-cache, and missed pairs kobj.dl reached, whose
//     objects and calls were then lost.) Besides the base relations and the contexts (entryCtx, newObj,
//     newObjIn, globalObj, objSite, subObj, callCtx, selfCtx, startCtx), kobj.dl reads
//     two of ci.dl's results as filters: assertPass(to, h), the sites each
//     type assertion passes, and dynType(h, t), the dynamic types each site
//     may have in an interface (see "What is modeled"); projected to sites,
//     kobj.dl's points-to of the values they test (an assertion's operand,
//     a value put into an interface) is within ci.dl's, so these filters
//     lose nothing either.
//     [Analyzer.Renames] tells, without running it, whether a run under
//     another Sigma would make a result's contexts again up to a renaming
//     (longer contexts, none split or merged), by making the contexts of
//     the result's reached pairs under both Sigmas side by side.
//
// For running the rule files elsewhere (chordgo facts, Souffle), the
// databases are readable with their inputs: ci.dl's through
// [NewRecordingAnalyzer], [Result.Database], and [Result.Record], which, when set, receives each later stage's
// database once it has run ([Result.Solve], condmustnot's proofs).
//
// [Analyzer.Program] restricts the analysis to one program (Root.Program):
// the same domains and ids, the base facts of the functions that program's
// roots and inits reach in the context-insensitive call graph of all
// programs, and its own context-insensitive pass. Programs are different
// processes and share no memory, so each is analyzed in its own run and
// no object, context or call edge of one reaches another; [Facts.Whole]
// gives the facts of all programs back. [Program.Programs] lists the
// programs and [Program.ProgramName] names them ("path (tests)", "path
// (main)"). Analyzers of different programs may run at once: they only
// read what they share. What is the same for every program is computed
// once for the whole load and shared: [Facts.AccessesAt], the accesses of
// an instruction, which each program's facts answer for the functions
// they hold.
//
// A context (domain C) is a sequence of sites; an abstract object is a
// context whose first element is its site, followed by the heap context, the
// allocating function's context cut so the object has k(h) elements. A
// pointer-receiver method, a closure, and any method reached through an
// interface run in the context of their receiver or closure object (object
// sensitivity; a pointer-receiver method's receiver is exactly that object),
// except that a go statement calling a pointer-receiver method starts it in
// a context of the go statement followed by the receiver object, so that
// the goroutine gets only its own go statement's arguments (Chord's thread
// start contexts), and so does a call of a spawn helper, a pointer-receiver
// method whose go statement starts a closure binding a function it was
// given (wg.Go(f), errgroup's g.Go(f): the relation spawnClosure), whose
// closure object keeps the helper's whole context, so that each call's
// goroutine runs that call's function alone, as go f() in the caller
// would (ci.dl's startRecvSite names the sites whose objects get such
// contexts, kobj.dl's startCtx holds them);
// a plain function or a value-receiver method called directly, and a
// function (not a closure) called through a function value, runs in a
// context that starts with its call site (k for the call site: 0 keeps the
// caller's context, Naik's rule; a callback the runtime calls later, such
// as time.AfterFunc's, keeps the context of the function that registered
// it). Call sites are in contexts so that a
// constructor called from two sites makes two objects once its allocation
// site has k = 2. Package initializers and func init() run once, in the empty
// context, whoever calls them (an importing package's initializer or the
// roots); so do main.main and TestMain. A test, benchmark, fuzz target or
// example may run in a root context of its own ([Result.EntryContext]), a
// base under the contexts made from it that k never cuts
// ([Contexts.Root]), so that an object a test allocates is not another
// test's object of the same site (tests run one after another; what one
// test allocates reaches another only through globals or objects
// allocated before both, and points-to follows those). Which objects keep
// that base is Sigma's choice per allocation site ([Sigma].Roots, chosen
// by the demand loop from the remaining races): an object of a split site
// keeps the base of the context that allocates it, other objects are on
// the empty base, a plain callee keeps its caller's base only if it may
// reach an allocation of a split site (ci.dl's call graph), and a test
// runs in its root context only if it may. With no site split (the demand
// loop's first run) every context is on the empty base, and each test's
// code is analyzed once, not once per test that reaches it (kobj.dl says
// why any choice is sound). Field, element and content sub-objects share
// the heap context of their object. Globals and function values are one object each.
// A call through a function value reaches only functions of its signature.
//
// # Domains
//
//	M  functions: the functions RTA (golang.org/x/tools/go/callgraph/rta) finds
//	   reachable from the roots and their inits, and every function their code
//	   refers to; sorted by package, file, offset, name. Functions without a Go
//	   body and the runtime's functions are in M but not analyzed (noBody);
//	   RTA does not see the runtime's code, so what only the runtime calls is
//	   not in M.
//	V  SSA values that can hold a pointer: their type is or contains a pointer,
//	   interface, slice, map, chan, func or unsafe.Pointer (strings and structs
//	   of numbers do not count). Parameters, free variables and instruction
//	   results of analyzed functions, and one program-wide value per Global and
//	   per function used as a value.
//	H  abstract objects. Root sites: each Alloc (new, composite literals,
//	   escaping variables, make([]T, n, const)), MakeSlice (the backing array),
//	   MakeMap, MakeChan, MakeClosure, MakeInterface of a non-pointer value
//	   (the box), call of append (the grown array), conversion of a string to
//	   []byte or []rune (the new array), Global (its storage), function used as
//	   a value (the function object), the *testing.T/B/F/M a test root
//	   receives (one per root), the results of each call of a function that
//	   is not analyzed (one per call site and pointer-carrying result), and
//	   each load of a struct or array value that carries pointers (its value
//	   tree). Sub-sites: locations inside a root
//	   site: one per struct field that some FieldAddr addresses, [*] for the
//	   elements of arrays and slices' backing arrays, [key] and [value] for
//	   a map's keys and its values, [chan] for a channel's elements, recursively for nested
//	   struct and array values.
//	F  fields: [*] (0), [key] (1), [value] (2), [chan] (3), then the addressed struct fields,
//	   identified by struct type (types.Identical) and index.
//	T  types (types.Identical): the dynamic types of objects (hType), the types
//	   of values put into interfaces (ifaceType), value receivers' types.
//	N  method names; unexported names are qualified by their package path.
//	I  call sites (Call, Go, Defer, builtins included), plus one synthetic go
//	   call site for each callback the runtime calls later (see below).
//	Z  small integers: argument positions and the operation kinds below.
//	E  memory accesses and channel operations.
//	S  function signatures, receivers ignored (identical signatures share an id).
//
// # Relations
//
// Columns are domain ids. Points-to:
//
//	alloc(v:V, h:H)               v points to the new object of root site h (also Globals and function values)
//	global(h:H)                   h exists once: a global's storage or a function object
//	subSite(h:H, f:F, h2:H)       h2 is the location f inside h
//	move(to:V, from:V)            to may hold what from holds: Phi, ChangeType, ChangeInterface,
//	                              Convert between pointer-like types, MakeInterface of a pointer (or of
//	                              a slice, map or func type, besides the box), Extract from a tuple that
//	                              is not a call's or a map range's Next, Slice, MultiConvert, SliceToArrayPointer, append's
//	                              result from its first argument, ssa:wrapnilchk, unsafe.Add/Slice/SliceData
//	typeAssert(to:V, from:V)      to = from.(T): to gets the objects of from that pass the assertion
//	                              (assertType, opaqueType)
//	load(to:V, ptr:V)             to = *ptr
//	store(ptr:V, from:V)          *ptr = from
//	copyLoad(to:V, ptr:V)         to = *ptr for a struct or array: to's value tree gets a copy of the
//	                              pointed-to location, path by path (see below)
//	copyStore(ptr:V, from:V)      *ptr = from for a struct or array: the location gets a copy of from's
//	                              tree; also a struct value boxed into an interface (ptr is the
//	                              interface, which points only to its box)
//	fieldAddr(to:V, base:V, f:F)  to = &base.f (FieldAddr), to = &base[i] (IndexAddr, f = [*])
//	contentLoad(to:V, base:V, f:F)   to gets the contents of sub-site f (and below) of base's objects:
//	                              map lookup ([value]), the key and value of a map range's Next
//	                              ([key], [value]: its Extracts), receive and select receive ([chan])
//	contentStore(base:V, f:F, from:V) sub-site f (and below) of base's objects gets from's pointers:
//	                              map update (the key into [key], the value into [value]), send,
//	                              select send
//	copyContents(dst:V, src:V, f:F)  sub-site f of dst's objects is a copy of sub-site f of src's objects,
//	                              path by path: copy, append (from the first argument and from the
//	                              spread argument); elements that are structs carry their fields
//	hType(h:H, t:T)               the type of h's address as allocated: root sites the type of the
//	                              allocated value (*T for Alloc, the map type, the signature, the boxed
//	                              type); field and element sub-sites *FieldType when that type has
//	                              methods (&s.mu as a sync.Locker). Interface calls dispatch on it only
//	                              for opaqueType objects; others on the types of ifaceType (dynType)
//	methodImpl(t:T, n:N, m:M)     t's method n is m; only for types in T, names some invoke uses,
//	                              and m in M
//	ifaceType(v:V, t:T)           v is a MakeInterface of a value of type t: the objects v points to may
//	                              sit in an interface with dynamic type t
//	assertType(to:V, t:T)         the type assertion whose result is to succeeds for dynamic type t (one
//	                              of ifaceType's): t is the asserted type, or implements the asserted
//	                              interface
//	opaqueType(h:H)               h, the result of a call of a function that is not analyzed, may sit in
//	                              an interface with any dynamic type: it passes every assertion
//
// Calls:
//
//	callSite(i:I, m:M)            call site i is in m
//	goCall(i:I), deferCall(i:I)   go and defer sites
//	staticCall(i:I, callee:M)     static callee (functions and methods with a known receiver type)
//	dynCall(i:I, fn:V)            call of the function value fn (closures, bound methods, func values,
//	                              a func literal called in place)
//	invoke(i:I, recv:V, n:N)      interface method call on recv
//	actual(i:I, z:Z, v:V)         argument z of i is v; for invoke z=0 is the receiver (the interface) and
//	                              the arguments start at 1, matching the callee's Params
//	callResult(i:I, z:Z, v:V)     v is result z of i: the call itself when it has one result, else the
//	                              Extract of component z (results flow component by component)
//	formal(m:M, z:Z, v:V)         Params[z] of m (z=0 is a method's receiver)
//	freeVar(m:M, z:Z, v:V)        FreeVars[z] of m
//	ret(m:M, z:Z, v:V)            m returns v as its result z
//	ptrRecv(m:M)                  m has a pointer receiver (called through an interface, its receiver is
//	                              the object the call dispatched on)
//	valueRecv(m:M, t:T)           m has a pointer-carrying value receiver of type t (called through an
//	                              interface, its receiver gets the objects of dynamic type t)
//	funcObj(h:H, m:M)             h (a closure or function object) is a function value of m
//	closureBind(h:H, z:Z, v:V)    closure site h binds free variable z to v
//	panicVal(v:V), recoverVal(v:V) panicked values and results of recover()
//	varFunc(v:V, m:M)             v belongs to m (not for Globals and function values)
//	entry(m:M)                    roots and the inits of their packages
//	rootParam(m:M, z:Z, h:H)      parameter z of root m points to the synthetic site h
//	noBody(m:M)                   m's code is not analyzed: no Go body, or in the runtime
//
// Only pointer-carrying values appear in these relations: a value of another
// type (an int argument, a string result) has no V id.
//
// Accesses (the locations a race may be on):
//
//	read(e:E, ptr:V), write(e:E, ptr:V)  e reads/writes the locations ptr points to: loads and stores
//	                              (fields, elements, globals, captured variables), sync/atomic
//	                              operations, internal/race annotations; builtins on slices: copy
//	                              (read src, write dst), append (write the result, read a spread
//	                              argument), clear; string(b) reads b; as for the race detector, a
//	                              send (or select send case) reads the channel object and close writes
//	                              it, and the methods of sync.Mutex, RWMutex, WaitGroup, Once and Cond
//	                              read and write their receiver atomically
//	deepAccess(e:E)               e accesses the location and every sub-site below it: loads and stores
//	                              of whole struct and array values, and the slice builtins above (ptr is
//	                              then the slice: it points to the backing array, whose elements are its
//	                              [*] sub-site)
//	mapRead(e:E, m:V), mapWrite(e:E, m:V)  lookup, range, len / update, delete, clear of map m
//	accessFunc(e:E, m:M)          e is in m (every E, channel operations included)
//	atomicAccess(e:E)             e is a sync/atomic function or a method of atomic.Int32, Bool, Value,
//	                              Pointer[T], ..., or a method of the sync types above
//
// Synchronization (the constants of this package encode z):
//
//	lockOp(i:I, ptr:V, z:Z)       (*sync.Mutex) and (*sync.RWMutex) Lock/Unlock/RLock/RUnlock/TryLock/
//	                              TryRLock on ptr: LockLock .. LockTryRLock
//	chanOp(e:E, ch:V, z:Z)        send, receive, close: ChanSend, ChanRecv, ChanClose; a select is one E
//	                              with one tuple per case
//	chanCap(h:H, c:Z)             MakeChan site h has constant capacity c (omitted when unknown or when
//	                              c does not fit Z)
//	syncCall(i:I, ptr:V, z:Z)     WaitGroup Add/Done/Wait/Go, Once.Do, Cond Wait/Signal/Broadcast on the
//	                              receiver ptr: SyncWaitGroupAdd .. SyncCondBroadcast
//
//	globalUse(v:V, m:M)           v, a global's address or a function used as a value (one V for the
//	                              whole program), is an operand in m
//	callSig(i:I, s:S)             call site i, not an interface call, calls a function of signature s
//	funcSig(m:M, s:S)             m has signature s: a call through a function value reaches only
//	                              functions of its signature
//
// Copies "path by path" pair corresponding locations and copy contents
// between them; as rules (pt: points-to, hpt: contents of a location):
//
//	copyPair(d, s)   :- copyContents(dst, src, f), pt(dst, hd), subSite(hd, f, d), pt(src, hs), subSite(hs, f, s).
//	copyPair(t, h)   :- copyLoad(to, ptr), pt(to, t), pt(ptr, h).
//	copyPair(h, t)   :- copyStore(ptr, from), pt(ptr, h), pt(from, t).
//	copyPair(d2, s2) :- copyPair(d, s), subSite(d, f, d2), subSite(s, f, s2).
//	hpt(d, x)        :- copyPair(d, s), hpt(s, x).
//
// # Struct and array values: value trees
//
// A struct or array value that carries pointers is an object of its own, a
// value tree: the register points to a root site (SiteValue, for the load
// that made the value) with the value type's sub-sites. Loads and stores of whole values
// are copyLoad and copyStore (path by path), Field and Index on a value are
// fieldAddr (struct or array result: the sub-tree) and contentLoad (other
// results: the contents of the field's location), and a value boxed into an
// interface is a box site with sub-sites that is a copy of the tree (hType
// the static type), so value-receiver methods and type assertions see the
// fields. Field and Index on values also give fields F ids and sites
// sub-sites. Moves, parameters, results, map and channel contents pass
// value trees by identity (values are immutable). The former default, a
// struct value as the union of the pointers inside it (loadDeep, storeDeep),
// put every pointer of a struct into every field of its copies; on the race
// suite with net/http its k-object-sensitive pass took two minutes and 11
// million points-to facts, against seconds and 1.3 million with value trees
// (BENCHMARKS.md), so it is gone.
//
// # What is modeled
//
// Interfaces are transparent for pointers: an interface value points to the
// objects its dynamic value points to. A pointer moves into an interface
// unchanged. Other values get a box site whose hType is the static type
// (time.Duration, a struct with value methods, a named func, map or chan type
// with methods such as http.HandlerFunc); the pointers inside a slice, map or
// func value move into the interface too, and a struct or array box is a copy
// of the value's tree, so a type assertion gets them back. Values without
// pointers and without methods get no box.
//
// Dynamic types are per object: dynType(h, t) (ci.dl) holds when h may sit
// in an interface made from a value of type t (ifaceType: the static type at
// the MakeInterface, which is the dynamic type the interface gets), or when
// h is the result of a function that is not analyzed (opaqueType) and t its
// hType. An interface method call dispatches on dynType, so a pointer
// converted to another named type before it goes into an interface calls that
// type's methods. A type assertion x.(T) passes the objects with a dynamic
// type that is T or, for an interface T, implements it, and opaque objects
// (assertPass). A method called through an interface gets as receiver the
// object it dispatched on (pointer receivers), or the objects of its
// receiver's type as dynamic type (value receivers: the box, and the arrays,
// maps and functions a box of a slice, map or func type carries). Both are
// sound as long as every interface is made by a MakeInterface (or comes from
// a function that is not analyzed): interfaces made through unsafe or
// reflect are not seen anyway (below).
//
// A call's results flow to their own values: ret and callResult carry the
// result index, so the error of a (T, error) result does not get T's
// objects. An append's result may share its first argument's array (move)
// or be a new array (alloc).
//
// Functions whose calls are modeled:
//
//	sync/atomic functions         atomic read and/or write of the address argument; the Pointer variants
//	                              (Load/Store/Swap/CompareAndSwapPointer) also load/store through it
//	atomic.Bool, Int32, Int64, Uint32, Uint64, Uintptr, Pointer[T], Value methods
//	                              atomic access to the receiver; Pointer[T] and Value also load/store
//	                              through the receiver (Value's code works through unsafe)
//	internal/race Read*, Write*   plain accesses (syscall buffers in race builds)
//	sync.Mutex, RWMutex, WaitGroup, Once, Cond methods  lockOp, syncCall (their code is analyzed too)
//	(*sync.Pool).Put, Get         Put(x) stores x into the pool object itself, Get loads from it (its
//	                              code, which calls New, is analyzed too): the per-P arrays are
//	                              reached through unsafe pointer arithmetic
//	time.newTimer                 the runtime later calls f(arg) in another goroutine (AfterFunc,
//	                              NewTimer, NewTicker): a synthetic go call site at the newTimer call
//	runtime.SetFinalizer, AddCleanup  likewise for the finalizer and the cleanup
//	builtins                      append, copy, clear, delete, len (maps), close, recover, ssa:wrapnilchk,
//	                              unsafe.Add/Slice/SliceData; the others carry no pointers
//
// # What is not modeled (unsound)
//
//   - Code that is not analyzed: functions without a Go body (assembly,
//     go:linkname pull stubs, cgo) other than the ones above, and the runtime
//     (package runtime and internal/runtime/...). A call's pointer-carrying
//     result points to an unknown object (one per call site, hType the
//     result type); effects on arguments are lost (e.g. reflect.typedmemmove,
//     reflect.mapassign, internal/reflectlite's, so errors.As does not
//     assign its target), and callbacks are not called (except the ones
//     above). A function value of such a function is a function object with
//     no code.
//   - unsafe: a pointer made from a uintptr points nowhere; a conversion between
//     pointer types keeps the objects, whose sub-sites follow the allocated type,
//     so a field of the converted-to type is not found (sync.Pool is modeled
//     instead, see above); an interface built through unsafe (reflect's
//     packEface, atomic.Value's words) is not a MakeInterface, so its objects
//     have no dynamic type for dispatch and assertions.
//   - reflect: calls through reflect.Value.Call and reflect.MakeFunc, and
//     values set or got through reflect.Value (its unsafe pointers).
//   - Conversions between pointer types (*A)(b) keep the objects: fields are
//     found only if the two struct types are identical (struct types that
//     differ in tags are not). Method dispatch uses the type the pointer had
//     when it went into the interface.
//   - Examples without an output comment are not roots (go test does not run
//     them).
package pointsto
