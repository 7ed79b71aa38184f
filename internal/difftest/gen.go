package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// maxLines bounds a generated program's length (gofmt'ed).
const maxLines = 150

// Generate returns the text of a small concurrent Go program, a main
// package, made from seed and generics alone (the same seed gives the same
// text). Without generics, no generic type or function is used (to look
// for misses other than those generic code causes).
//
// Every program terminates without a deadlock by construction: loops and
// recursion are bounded by constants; a critical section holds only plain
// accesses (never a call that locks, waits or spawns); every goroutine
// runs a body that terminates and then signals its join, if it has one;
// and a wait is emitted in the same statement list as its spawn, after
// it, so it is reached exactly once per signal. A goroutine main does not
// join may still be running when main returns. Whether a program races is
// left to the race detector: both kinds arise from the same rules.
func Generate(seed uint64, generics bool) string {
	r := rand.New(rand.NewPCG(seed, 0x646966667465737))
	for {
		g := &gen{r: r, generics: generics}
		src := g.program()
		if strings.Count(src, "\n") <= maxLines {
			return src
		}
	}
}

// Location kinds: what memory an access touches.
const (
	kindInt    = iota // an int variable: global, or local to main and captured
	kindField         // a field of a *T
	kindMethod        // a field of a *T through its methods, directly or through an interface
	kindArray         // an element of a global array
	kindSlice         // an element or the header of a global slice
	kindMap           // a global map
	kindBox           // the field of a generic *Box[int], through its methods
	kindAtomic        // an int64 used with sync/atomic (and, rarely, without)
	numKinds
)

// A loc is a memory location as the code in one scope names it.
type loc struct {
	kind  int
	expr  string // the variable, or the expression of the object
	local bool   // declared in main: usable only in main's closures
	decl  string // main's declaration of a local
}

type gen struct {
	r        *rand.Rand
	decls    []string        // top-level declarations after the types
	funcs    []string        // helper functions
	locs     []loc           // the program's locations, as main names them
	used     map[string]bool // locations named in the program
	read     map[string]bool // of those, the ones not only assigned to (a local only assigned to does not compile)
	n        int             // names made so far
	stmts    int             // statements made so far, to bound the size
	typeT    bool
	typeBox  bool
	generics bool // may use Box and generic helpers
}

// scope is what a statement list can name.
type scope struct {
	locs  []loc
	loopI string // a loop variable in scope, "" if none
}

func (g *gen) fresh(prefix string) string {
	g.n++
	return fmt.Sprintf("%s%d", prefix, g.n)
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) program() string {
	g.used, g.read = map[string]bool{}, map[string]bool{}
	for range 2 + g.r.IntN(3) {
		g.locs = append(g.locs, g.newLoc())
	}
	body := g.block(&scope{locs: g.locs}, 3, 3+g.r.IntN(5))
	var b strings.Builder
	// All the imports a program may need; formatUsed drops the others.
	b.WriteString("package main\n\nimport (\n\"context\"\n\"runtime\"\n\"sync\"\n\"sync/atomic\"\n)\n\n")
	if g.typeT {
		b.WriteString(typeTDecl)
	}
	if g.typeBox {
		b.WriteString(typeBoxDecl)
	}
	b.WriteString("//go:noinline\nfunc sink[V any](v V) {}\n\n")
	for _, d := range g.decls {
		b.WriteString(d + "\n")
	}
	for _, f := range g.funcs {
		b.WriteString("\n" + f + "\n")
	}
	b.WriteString("\nfunc main() {\n")
	for _, l := range g.locs {
		if l.local && g.used[l.expr] {
			b.WriteString(l.decl + "\n")
			if !g.read[l.expr] {
				b.WriteString("_ = " + l.expr + "\n")
			}
		}
	}
	b.WriteString(strings.Join(body, "\n"))
	b.WriteString("\n}\n")
	fset, file, err := parse(b.String())
	if err == nil {
		var out string
		if out, err = formatUsed(fset, file); err == nil {
			return out
		}
	}
	panic(fmt.Sprintf("difftest: generated program does not parse: %v\n%s", err, b.String()))
}

const typeTDecl = `type T struct {
	mu   sync.Mutex
	a, b int
}

func (t *T) Set(v int) { t.a = v }

func (t *T) Get() int { return t.a }

func (t *T) Inc() {
	t.mu.Lock()
	t.b++
	t.mu.Unlock()
}

type Setter interface{ Set(int) }

`

const typeBoxDecl = `type Box[V any] struct{ v V }

func (b *Box[V]) Set(v V) { b.v = v }

func (b *Box[V]) Get() V { return b.v }

`

// locDecls has, per location kind, its names' prefix, its package-level
// declaration and, for the kinds main may declare as locals its closures
// capture, the local one.
var locDecls = [numKinds]struct{ prefix, global, local string }{
	kindInt:    {"x", "var %s int", "%s := 0"},
	kindField:  {"o", "var %s = &T{}", "%s := &T{}"},
	kindMethod: {"o", "var %s = &T{}", "%s := &T{}"},
	kindArray:  {"arr", "var %s [4]int", ""},
	kindSlice:  {"sl", "var %s = make([]int, 4)", ""},
	kindMap:    {"m", "var %s = map[int]int{}", ""},
	kindBox:    {"bx", "var %s = &Box[int]{}", ""},
	kindAtomic: {"at", "var %s int64", ""},
}

// newLoc declares a new location.
func (g *gen) newLoc() loc {
	k := g.r.IntN(numKinds)
	if k == kindBox && !g.generics {
		k = kindInt
	}
	g.typeT = g.typeT || k == kindField || k == kindMethod
	g.typeBox = g.typeBox || k == kindBox
	d := locDecls[k]
	name := g.fresh(d.prefix)
	if d.local != "" && g.chance(0.3) {
		return loc{kind: k, expr: name, local: true, decl: fmt.Sprintf(d.local, name)}
	}
	g.decls = append(g.decls, fmt.Sprintf(d.global, name))
	return loc{kind: k, expr: name}
}

// accessForms has, per location kind, the statements that read it and
// those that write it (a form listed twice is drawn twice as often):
// %[1]s is the location, %[2]s an index, %[3]d a constant.
var accessForms = [numKinds]struct{ reads, writes []string }{
	kindInt:    {[]string{"sink(%[1]s)"}, []string{"%[1]s = %[3]d", "%[1]s++"}},
	kindField:  {[]string{"sink(%[1]s.a)", "sink(%[1]s.b)"}, []string{"%[1]s.a = %[3]d", "%[1]s.b = %[3]d"}},
	kindMethod: {[]string{"sink(%[1]s.Get())"}, []string{"%[1]s.Set(%[3]d)", "%[1]s.Set(%[3]d)", "Setter(%[1]s).Set(%[3]d)", "%[1]s.Inc()"}},
	kindArray:  {[]string{"sink(%[1]s[%[2]s])"}, []string{"%[1]s[%[2]s] = %[3]d"}},
	kindSlice:  {[]string{"sink(%[1]s[%[2]s])", "sink(%[1]s[%[2]s])", "sink(len(%[1]s))"}, []string{"%[1]s[%[2]s] = %[3]d", "%[1]s[%[2]s] = %[3]d", "%[1]s = append(%[1]s, %[3]d)"}},
	kindMap:    {[]string{"sink(%[1]s[%[3]d])", "sink(%[1]s[%[3]d])", "sink(len(%[1]s))"}, []string{"%[1]s[%[3]d] = %[3]d", "%[1]s[%[3]d] = %[3]d", "%[1]s[%[3]d] = %[3]d", "delete(%[1]s, %[3]d)"}},
	kindBox:    {[]string{"sink(%[1]s.Get())"}, []string{"%[1]s.Set(%[3]d)", "%[1]s.Set(%[3]d)", "Setter(%[1]s).Set(%[3]d)"}},
	// Mostly atomic; a plain access of the same variable races with them.
	kindAtomic: {
		[]string{"sink(atomic.LoadInt64(&%[1]s))", "sink(atomic.LoadInt64(&%[1]s))", "sink(atomic.LoadInt64(&%[1]s))", "sink(%[1]s)"},
		[]string{"atomic.AddInt64(&%[1]s, 1)", "atomic.AddInt64(&%[1]s, 1)", "atomic.StoreInt64(&%[1]s, %[3]d)", "atomic.StoreInt64(&%[1]s, %[3]d)", "%[1]s = %[3]d"},
	},
}

// access returns one statement that reads or writes l; locked says it
// will run in a critical section, where it must not lock itself (Inc
// locks t.mu).
func (g *gen) access(sc *scope, l loc, write, locked bool) string {
	g.used[l.expr] = true
	forms := accessForms[l.kind].reads
	if write {
		forms = accessForms[l.kind].writes
	}
	if locked {
		forms = slices.DeleteFunc(slices.Clone(forms), func(f string) bool { return strings.Contains(f, ".Inc()") })
	}
	form := forms[g.r.IntN(len(forms))]
	if !strings.HasPrefix(form, "%[1]s = ") {
		g.read[l.expr] = true
	}
	if strings.HasPrefix(form, "Setter(") {
		g.typeT = true
	}
	idx := fmt.Sprint(g.r.IntN(2))
	if sc.loopI != "" && g.chance(0.3) {
		idx = sc.loopI + " % 4"
	}
	return fmt.Sprintf(form, l.expr, idx, g.r.IntN(9)+1)
}

// guarded returns one access, possibly in a critical section.
func (g *gen) guarded(sc *scope) []string {
	l := sc.locs[g.r.IntN(len(sc.locs))]
	write := g.chance(0.6)
	switch p := g.r.IntN(10); {
	case p < 5:
		return []string{g.access(sc, l, write, false)}
	case p < 7:
		g.global("var mu sync.Mutex")
		acc := g.access(sc, l, write, true)
		if g.chance(0.3) {
			return []string{"func() {", "mu.Lock()", "defer mu.Unlock()", acc, "}()"}
		}
		return []string{"mu.Lock()", acc, "mu.Unlock()"}
	case p < 9:
		g.global("var rw sync.RWMutex")
		acc := g.access(sc, l, write, true)
		// A write under the read lock is a race with another such write.
		if !write || g.chance(0.2) {
			return []string{"rw.RLock()", acc, "rw.RUnlock()"}
		}
		return []string{"rw.Lock()", acc, "rw.Unlock()"}
	default:
		if l.kind != kindField && l.kind != kindMethod {
			return []string{g.access(sc, l, write, false)}
		}
		g.used[l.expr], g.read[l.expr] = true, true
		return []string{l.expr + ".mu.Lock()", g.access(sc, l, write, true), l.expr + ".mu.Unlock()"}
	}
}

// global declares a package-level synchronization variable once.
func (g *gen) global(decl string) {
	if !slices.Contains(g.decls, decl) {
		g.decls = append(g.decls, decl)
	}
}

// block returns a statement list: accesses, spawns with their joins,
// calls of helpers, Once, closures.
func (g *gen) block(sc *scope, depth, n int) []string {
	var out []string
	var waits [][]string // joins of goroutines spawned here, not yet waited for
	for i := 0; i < n && g.stmts < 40; i++ {
		g.stmts++
		if len(waits) > 0 && g.chance(0.4) {
			j := g.r.IntN(len(waits))
			out = append(out, waits[j]...)
			waits = slices.Delete(waits, j, j+1)
		}
		switch p := g.r.IntN(12); {
		case p < 5 || depth == 0:
			out = append(out, g.guarded(sc)...)
		case p < 8:
			spawn, wait := g.spawn(sc, depth-1)
			out = append(out, spawn...)
			if wait != nil {
				waits = append(waits, wait)
			}
		case p < 9:
			spawn, wait := g.loopSpawn(sc, depth-1)
			out = append(out, spawn...)
			if wait != nil {
				waits = append(waits, wait)
			}
		case p < 10:
			out = append(out, g.call(sc, depth-1)...)
		case p < 11:
			name := g.fresh("once")
			g.global("var " + name + " sync.Once")
			body := g.accesses(sc)
			out = append(out, name+".Do(func() {")
			out = append(out, body...)
			out = append(out, "})")
			if g.chance(0.5) {
				out = append(out, name+".Do(func() {})")
			}
		default:
			name := g.fresh("f")
			out = append(out, name+" := func() {")
			out = append(out, g.block(sc, depth-1, 1+g.r.IntN(4))...)
			out = append(out, "}")
			out = append(out, name+"()")
			if g.chance(0.5) {
				out = append(out, "go "+name+"()")
			}
		}
	}
	// Two pending joins may be waited for by one select: the first to
	// signal ends it; the other goroutine is then not joined.
	if len(waits) >= 2 && g.chance(0.2) && len(waits[0]) == 1 && len(waits[1]) == 1 &&
		strings.HasPrefix(waits[0][0], "<-") && strings.HasPrefix(waits[1][0], "<-") {
		out = append(out, "select {", "case "+waits[0][0]+":", "case "+waits[1][0]+":", "}")
		waits = waits[2:]
	}
	for _, w := range waits {
		out = append(out, w...)
	}
	return out
}

// accesses returns one to three plain accesses.
func (g *gen) accesses(sc *scope) []string {
	var out []string
	for range 1 + g.r.IntN(3) {
		out = append(out, g.guarded(sc)...)
	}
	return out
}

// spawn returns the statements that start one goroutine, and the wait
// that joins it (nil: not joined).
func (g *gen) spawn(sc *scope, depth int) (spawn, wait []string) {
	body := g.block(sc, depth, 1+g.r.IntN(4))
	name := g.fresh("")
	var pre, post []string // in the spawning code; at the goroutine's end
	switch g.r.IntN(11) {
	case 0:
		// not joined
	case 1:
		wg := "wg" + name
		pre = []string{"var " + wg + " sync.WaitGroup", wg + ".Add(1)"}
		post = []string{"defer " + wg + ".Done()"}
		wait = []string{wg + ".Wait()"}
	case 2:
		wg := "wg" + name
		spawn = append(spawn, "var "+wg+" sync.WaitGroup", wg+".Go(func() {")
		spawn = append(spawn, body...)
		spawn = append(spawn, "})")
		return spawn, []string{wg + ".Wait()"}
	case 3:
		ch := "done" + name
		pre = []string{ch + " := make(chan struct{})"}
		post = []string{"defer close(" + ch + ")"}
		wait = []string{"<-" + ch}
	case 4:
		ch := "done" + name
		pre = []string{ch + " := make(chan bool)"}
		body = append(body, ch+" <- true")
		wait = []string{"<-" + ch}
	case 5:
		ch := "res" + name
		pre = []string{ch + " := make(chan int, 1)"}
		body = append(body, ch+" <- 1")
		wait = []string{"sink(<-" + ch + ")"}
	case 6:
		ctx, cancel := "ctx"+name, "cancel"+name
		pre = []string{ctx + ", " + cancel + " := context.WithCancel(context.Background())"}
		post = []string{"defer " + cancel + "()"}
		wait = []string{"<-" + ctx + ".Done()"}
	case 7:
		mu, cond, ready := "cmu"+name, "cond"+name, "ready"+name
		pre = []string{"var " + mu + " sync.Mutex", cond + " := sync.NewCond(&" + mu + ")", ready + " := false"}
		body = append(body, mu+".Lock()", ready+" = true", cond+".Broadcast()", mu+".Unlock()")
		wait = []string{mu + ".Lock()", "for !" + ready + " {", cond + ".Wait()", "}", mu + ".Unlock()"}
	case 8:
		flag := "flag" + name
		pre = []string{"var " + flag + " atomic.Bool"}
		body = append(body, flag+".Store(true)")
		wait = []string{"for !" + flag + ".Load() {", "runtime.Gosched()", "}"}
	case 9:
		ch, waiting := "done"+name, "waiting"+name
		pre = []string{ch + " := make(chan struct{})"}
		post = []string{"defer close(" + ch + ")"}
		wait = []string{"for " + waiting + " := true; " + waiting + "; {", "select {", "case <-" + ch + ":",
			waiting + " = false", "default:", "runtime.Gosched()", "}", "}"}
	default:
		// A handoff: the goroutine fills an object and sends it.
		g.typeT = true
		ch, obj := "ch"+name, "p"+name
		pre = []string{ch + " := make(chan *T" + []string{"", ", 1"}[g.r.IntN(2)] + ")"}
		body = append(body, obj+" := &T{}", obj+".a = 1", ch+" <- "+obj)
		wait = []string{"sink((<-" + ch + ").a)"}
	}
	spawn = append(spawn, pre...)
	spawn = append(spawn, "go func() {")
	spawn = append(spawn, post...)
	spawn = append(spawn, body...)
	spawn = append(spawn, "}()")
	return spawn, wait
}

// loopSpawn returns a loop that starts three goroutines, and the wait
// that joins them (nil: not joined).
func (g *gen) loopSpawn(sc *scope, depth int) (spawn, wait []string) {
	name := g.fresh("")
	i := "i" + name
	inner := *sc
	inner.loopI = i
	body := g.block(&inner, depth, 1+g.r.IntN(4))
	loop := "for " + i + " := 0; " + i + " < 3; " + i + "++ {"
	switch g.r.IntN(3) {
	case 0:
		spawn = append(spawn, loop, "go func() {")
		spawn = append(spawn, body...)
		spawn = append(spawn, "}()", "}")
		return spawn, nil
	case 1:
		wg := "wg" + name
		spawn = append(spawn, "var "+wg+" sync.WaitGroup", loop, wg+".Add(1)", "go func() {", "defer "+wg+".Done()")
		spawn = append(spawn, body...)
		spawn = append(spawn, "}()", "}")
		return spawn, []string{wg + ".Wait()"}
	default:
		ch := "ch" + name
		spawn = append(spawn, ch+" := make(chan int, 3)", loop, "go func() {")
		spawn = append(spawn, body...)
		spawn = append(spawn, ch+" <- "+i, "}()", "}")
		return spawn, []string{"for range 3 {", "<-" + ch, "}"}
	}
}

// call makes a helper function and returns the statements that call it:
// a plain function, a method, a recursive function (plain or a chain of
// goroutines), or a generic function.
func (g *gen) call(sc *scope, depth int) []string {
	name := g.fresh("work")
	// A helper sees the globals, and one *T or *Box[int] location as its
	// parameter when the caller has one.
	var globals []loc
	var param *loc
	for _, l := range sc.locs {
		switch {
		case !l.local && (param == nil || g.chance(0.5)):
			globals = append(globals, l)
		case (l.kind == kindField || l.kind == kindMethod || l.kind == kindBox) && param == nil:
			param = &l
		}
	}
	inner := &scope{locs: globals}
	arg := ""
	if param != nil {
		arg = param.expr
		g.used[arg], g.read[arg] = true, true
		inner.locs = append(slices.Clone(globals), loc{kind: param.kind, expr: "p", local: true})
	}
	if len(inner.locs) == 0 {
		return g.guarded(sc)
	}
	ptype := "*T"
	if param != nil && param.kind == kindBox {
		ptype = "*Box[int]"
	}
	switch g.r.IntN(4) {
	case 0:
		body := g.block(inner, depth, 1+g.r.IntN(4))
		if param != nil && g.generics && g.chance(0.5) {
			// A generic helper: instantiated at int.
			g.funcs = append(g.funcs, fmt.Sprintf("func %s[P any](p %s, v P) {\n%s\n}", name, ptype, strings.Join(body, "\n")))
			return []string{fmt.Sprintf("%s(%s, %d)", name, arg, g.r.IntN(9))}
		}
		params := ""
		if param != nil {
			params = "p " + ptype
		}
		g.funcs = append(g.funcs, fmt.Sprintf("func %s(%s) {\n%s\n}", name, params, strings.Join(body, "\n")))
		if g.chance(0.3) {
			return []string{"go " + name + "(" + arg + ")"}
		}
		return []string{name + "(" + arg + ")"}
	case 1:
		if param == nil || param.kind == kindBox {
			return g.call(sc, depth)
		}
		// A method with p as its receiver.
		body := g.block(inner, depth, 1+g.r.IntN(4))
		g.funcs = append(g.funcs, fmt.Sprintf("func (p *T) %s() {\n%s\n}", name, strings.Join(body, "\n")))
		return []string{arg + "." + name + "()"}
	case 2:
		body := g.accesses(inner)
		params, args, rest := "n int", "2", ""
		if param != nil {
			params += ", p " + ptype
			args += ", " + arg
			rest = ", p"
		}
		call := "go " + name
		if g.chance(0.5) {
			call = name
		}
		g.funcs = append(g.funcs, fmt.Sprintf("func %s(%s) {\nif n == 0 {\nreturn\n}\n%s\n%s(n-1%s)\n}",
			name, params, strings.Join(body, "\n"), call, rest))
		return []string{name + "(" + args + ")"}
	default:
		// A chain of goroutines, each starting the next, joined by one
		// WaitGroup.
		body := g.accesses(inner)
		params, args, rest := "n int, wg *sync.WaitGroup", "2, &wg"+name, ""
		if param != nil {
			params += ", p " + ptype
			args += ", " + arg
			rest = ", p"
		}
		g.funcs = append(g.funcs, fmt.Sprintf("func %s(%s) {\ndefer wg.Done()\n%s\nif n > 0 {\nwg.Add(1)\ngo %s(n-1, wg%s)\n}\n}",
			name, params, strings.Join(body, "\n"), name, rest))
		return []string{"var wg" + name + " sync.WaitGroup", "wg" + name + ".Add(1)", "go " + name + "(" + args + ")", "wg" + name + ".Wait()"}
	}
}
