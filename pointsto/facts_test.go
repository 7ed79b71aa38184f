package pointsto

import (
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

func hasID(hs []uint32, h uint32) bool { return slices.Contains(hs, h) }

func TestClosure(t *testing.T) { testClosure(t, sharedFixture(t)) }

func testClosure(t *testing.T, fx *fixture) {
	f := fx.facts
	main, closure := fx.fn("closure", "main"), fx.fn("closure", "main$1")

	// x escapes into the closure: a heap Alloc site.
	var x uint32 = NoID
	for h, s := range f.sites {
		if a, ok := s.Value.(*ssa.Alloc); ok && s.Kind == SiteAlloc && s.Func == main && a.Comment == "x" {
			x = uint32(h)
		}
	}
	if x == NoID {
		t.Fatal("no alloc site for x")
	}
	var cl uint32 = NoID
	for h, s := range f.sites {
		if s.Kind == SiteClosure && s.Func == main {
			cl = uint32(h)
		}
	}
	if cl == NoID || !fx.has("funcObj", cl, closure) {
		t.Fatalf("closure site %d is not a function value of main$1", cl)
	}
	binds := fx.where("closureBind", 0, cl)
	if len(binds) != 1 || binds[0][1] != 0 || !hasID(fx.s.pointsTo(binds[0][2]), x) {
		t.Errorf("closureBind of the closure = %v, want free var 0 bound to x's cell", binds)
	}
	fvs := fx.where("freeVar", 0, closure)
	if len(fvs) != 1 || !hasID(fx.s.pointsTo(fvs[0][2]), x) {
		t.Errorf("free variable of main$1 does not point to x's cell: %v", fvs)
	}
	if w := fx.accessed("closure", "write", "write"); !hasID(w, x) {
		t.Errorf("the write in the closure touches %v, want x's cell", fx.siteDescs(w))
	}
	if r := fx.accessed("closure", "read", "read"); !hasID(r, x) {
		t.Errorf("the read in main touches %v, want x's cell", fx.siteDescs(r))
	}
	if len(fx.where("dynCall", 1, binds[0][2])) != 0 {
		t.Error("dynCall on the wrong value")
	}
}

func TestField(t *testing.T) { testField(t, sharedFixture(t)) }

func testField(t *testing.T, fx *fixture) {
	f := fx.facts
	newT := fx.site("field", "newT", SiteAlloc)
	newx := fx.site("field", "newx", SiteAlloc)
	var labels []string
	for _, tu := range fx.where("subSite", 0, newT) {
		labels = append(labels, f.FieldDesc(tu[1]))
	}
	slices.Sort(labels)
	want := []string{
		"(github.com/chordgo/chordgo/testdata/pointsto/field.T).a",
		"(github.com/chordgo/chordgo/testdata/pointsto/field.T).b",
	}
	if !slices.Equal(labels, want) {
		t.Errorf("sub-sites of T's site: %q, want %q (next is never addressed)", labels, want)
	}
	a := fx.subSiteByPath(newT, "a")
	if got := f.SiteDesc(a); got != "site#"+idStr(newT)+".a" {
		t.Errorf("SiteDesc = %q", got)
	}
	if c := fx.s.contents(a); !slices.Equal(c, []uint32{newx}) {
		t.Errorf("T.a holds %v, want x", fx.siteDescs(c))
	}
	y := fx.value("field", "loadA", isInstr[*ssa.UnOp])
	if p := fx.s.pointsTo(y); !slices.Equal(p, []uint32{newx}) {
		t.Errorf("y points to %v", fx.siteDescs(p))
	}
	if w := fx.accessed("field", "storeB", "write"); !slices.Equal(w, []uint32{fx.subSiteByPath(newT, "b")}) {
		t.Errorf("t.b = 2 writes %v", fx.siteDescs(w))
	}
	if w := fx.accessed("field", "storeA", "write"); !slices.Equal(w, []uint32{a}) {
		t.Errorf("t.a = x writes %v", fx.siteDescs(w))
	}
}

func TestMaps(t *testing.T) { testMaps(t, sharedFixture(t)) }

func testMaps(t *testing.T, fx *fixture) {
	mk := fx.site("maps", "make", SiteMakeMap)
	newx := fx.site("maps", "newx", SiteAlloc)
	mapOps := func(marker, rel string) {
		t.Helper()
		es := fx.accessesAt("maps", marker)
		found := false
		for _, e := range es {
			for _, tu := range fx.where(rel, 0, e) {
				found = found || hasID(fx.s.pointsTo(tu[1]), mk)
			}
		}
		if !found {
			t.Errorf("@%s: no %s of the map", marker, rel)
		}
	}
	mapOps("update", "mapWrite")
	mapOps("delete", "mapWrite")
	mapOps("lookup", "mapRead")
	mapOps("range", "mapRead")
	mapOps("len", "mapRead")
	isLookup := func(v ssa.Value) bool { _, ok := v.(*ssa.Lookup); return ok }
	// A map keyed by pointers: its keys are not its values, so a lookup
	// gives the values only and a range's key the keys only.
	byPtr := fx.site("maps", "makeptr", SiteMakeMap)
	newk := fx.site("maps", "newk", SiteAlloc)
	for _, c := range []struct {
		what string
		got  []uint32
		want []uint32
	}{
		{"m's [value]", fx.s.contents(fx.subSiteByPath(mk, "[value]")), []uint32{newx}},
		{"m[\"a\"]", fx.s.pointsTo(fx.value("maps", "lookup", isLookup)), []uint32{newx}},
		{"sink (range value)", fx.s.contents(fx.globalSite("maps", "sink")), []uint32{newx}},
		{"byPtr's [key]", fx.s.contents(fx.subSiteByPath(byPtr, "[key]")), []uint32{newk}},
		{"byPtr's [value]", fx.s.contents(fx.subSiteByPath(byPtr, "[value]")), []uint32{newx}},
		{"byPtr[k]", fx.s.pointsTo(fx.value("maps", "lookupptr", isLookup)), []uint32{newx}},
		{"sinkKey (range key)", fx.s.contents(fx.globalSite("maps", "sinkKey")), []uint32{newk}},
		{"sinkValue (range value)", fx.s.contents(fx.globalSite("maps", "sinkValue")), []uint32{newx}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s holds %v, want %v", c.what, fx.siteDescs(c.got), fx.siteDescs(c.want))
		}
	}
}

// globalSite returns the site of a package-level variable.
func (fx *fixture) globalSite(pkg, name string) uint32 {
	fx.t.Helper()
	for h, s := range fx.facts.sites {
		if g, ok := s.Value.(*ssa.Global); ok && s.Kind == SiteGlobal && g.Name() == name &&
			strings.HasSuffix(g.Pkg.Pkg.Path(), "/"+pkg) {
			return uint32(h)
		}
	}
	fx.t.Fatalf("no global %s.%s", pkg, name)
	return 0
}

func idStr(n uint32) string { return strconv.Itoa(int(n)) }

func TestChans(t *testing.T) { testChans(t, sharedFixture(t)) }

func testChans(t *testing.T, fx *fixture) {
	make3 := fx.site("chans", "make3", SiteMakeChan)
	make0 := fx.site("chans", "make0", SiteMakeChan)
	newx := fx.site("chans", "newx", SiteAlloc)
	if !fx.has("chanCap", make3, 3) || !fx.has("chanCap", make0, 0) {
		t.Errorf("chanCap: %v", fx.facts.Tuples("chanCap"))
	}
	ops := func(marker string) map[[2]uint32]bool { // (site, kind)
		got := make(map[[2]uint32]bool)
		for _, e := range fx.accessesAt("chans", marker) {
			for _, tu := range fx.where("chanOp", 0, e) {
				for _, h := range fx.s.pointsTo(tu[1]) {
					got[[2]uint32{h, tu[2]}] = true
				}
			}
		}
		return got
	}
	for _, c := range []struct {
		marker string
		site   uint32
		kind   uint32
	}{
		{"send", make3, ChanSend},
		{"recv", make3, ChanRecv},
		{"select", make0, ChanRecv},
		{"select", make3, ChanSend},
		{"close", make3, ChanClose},
	} {
		if !ops(c.marker)[[2]uint32{c.site, c.kind}] {
			t.Errorf("@%s: no chanOp kind %d on %s: %v", c.marker, c.kind, fx.facts.SiteDesc(c.site), ops(c.marker))
		}
	}
	if c := fx.s.contents(fx.subSiteByPath(make0, "[chan]")); !slices.Equal(c, []uint32{newx}) {
		t.Errorf("d's [chan] holds %v", fx.siteDescs(c))
	}
	if c := fx.s.contents(fx.globalSite("chans", "sink")); !slices.Equal(c, []uint32{newx}) {
		t.Errorf("sink holds %v", fx.siteDescs(c))
	}
	// As for the race detector, a send reads the channel and close writes
	// it (a send and a close race); a receive is no access.
	for _, e := range fx.accessesAt("chans", "send") {
		if len(fx.where("read", 0, e)) == 0 || len(fx.where("write", 0, e)) > 0 {
			t.Errorf("send is not a read of the channel")
		}
	}
}

func TestIface(t *testing.T) { testIface(t, sharedFixture(t)) }

func testIface(t *testing.T, fx *fixture) {
	is := fx.callsAt("iface", "invoke")
	var inv []uint32
	for _, i := range is {
		for _, tu := range fx.where("invoke", 0, i) {
			inv = append(inv, tu[0])
			if fx.facts.Name(tu[2]) != "Area" {
				t.Errorf("invoke name %q", fx.facts.Name(tu[2]))
			}
		}
	}
	if len(inv) != 1 {
		t.Fatalf("invoke sites at @invoke: %v", inv)
	}
	got := fx.calleeNames(inv[0])
	p := "github.com/chordgo/chordgo/testdata/pointsto/iface."
	want := []string{"(" + p + "Circle).Area", "(*" + p + "Sq).Area", "(" + p + "F).Area"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("callees of s.Area() = %q, want %q", got, want)
	}
	// The named func type's method calls the closure inside the box.
	fArea := fx.fn("iface", "(F).Area")
	var dyn []string
	for _, tu := range fx.where("callSite", 1, fArea) {
		dyn = append(dyn, fx.calleeNames(tu[0])...)
	}
	if !slices.Equal(dyn, []string{p + "main$1"}) {
		t.Errorf("F.Area calls %q", dyn)
	}
	// Circle's box carries the pointer inside the struct value.
	circleArea := fx.fn("iface", "(Circle).Area")
	recv := fx.where("formal", 0, circleArea)
	if len(recv) == 0 || len(fx.s.pointsTo(recv[0][2])) == 0 {
		t.Errorf("Circle.Area's receiver points nowhere")
	}
}

func TestCtor(t *testing.T) { testCtor(t, sharedFixture(t)) }

func testCtor(t *testing.T, fx *fixture) {
	newT := fx.fn("ctor", "newT")
	alloc := fx.site("ctor", "alloc", SiteAlloc)
	for _, marker := range []string{"call1", "call2"} {
		is := fx.callsAt("ctor", marker)
		if len(is) != 1 || !fx.has("staticCall", is[0], newT) {
			t.Errorf("@%s: no static call of newT: %v", marker, is)
			continue
		}
		res := fx.where("callResult", 0, is[0])
		if len(res) != 1 || !slices.Equal(fx.s.pointsTo(res[0][2]), []uint32{alloc}) {
			t.Errorf("@%s: result %v", marker, res)
		}
	}
	if len(fx.where("ret", 0, newT)) != 1 {
		t.Errorf("ret of newT: %v", fx.where("ret", 0, newT))
	}
}

func TestGoStmt(t *testing.T) { testGoStmt(t, sharedFixture(t)) }

func testGoStmt(t *testing.T, fx *fixture) {
	newx := fx.siteOfType("gostmt", "newx", SiteAlloc, "int")
	for _, marker := range []string{"go", "goclosure"} {
		is := fx.callsAt("gostmt", marker)
		n := 0
		for _, i := range is {
			if fx.has("goCall", i) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("@%s: %d go sites", marker, n)
		}
	}
	if w := fx.accessed("gostmt", "write", "write"); !slices.Equal(w, []uint32{newx}) {
		t.Errorf("worker writes %v", fx.siteDescs(w))
	}
	// main reads x's cell (x is captured) and then *x.
	if r := fx.accessed("gostmt", "read", "read"); !slices.Equal(r, []uint32{fx.siteOfType("gostmt", "newx", SiteAlloc, "*int"), newx}) {
		t.Errorf("main reads %v", fx.siteDescs(r))
	}
}

func TestGlobal(t *testing.T) { testGlobal(t, sharedFixture(t)) }

func testGlobal(t *testing.T, fx *fixture) {
	counter := fx.globalSite("global", "counter")
	cfg := fx.globalSite("global", "cfg")
	if !fx.has("global", counter) || !fx.has("global", cfg) {
		t.Error("globals are not global(h)")
	}
	if w := fx.accessed("global", "inc", "write"); !slices.Equal(w, []uint32{counter}) {
		t.Errorf("counter++ writes %v", fx.siteDescs(w))
	}
	conf := fx.site("global", "cfg", SiteAlloc) // allocated by the package initializer
	if c := fx.s.contents(cfg); !slices.Equal(c, []uint32{conf}) {
		t.Errorf("cfg holds %v", fx.siteDescs(c))
	}
	n := fx.subSiteByPath(conf, "n")
	if w := fx.accessed("global", "store", "write"); !slices.Equal(w, []uint32{n}) {
		t.Errorf("cfg.n = ... writes %v", fx.siteDescs(w))
	}
	if c := fx.s.contents(n); !slices.Equal(c, []uint32{counter}) {
		t.Errorf("cfg.n holds %v", fx.siteDescs(c))
	}
	init := fx.fn("global", "init")
	if !fx.has("entry", init) || !fx.has("entry", fx.fn("global", "main")) {
		t.Error("init and main are not entries")
	}
}

func TestAppendCopy(t *testing.T) { testAppendCopy(t, sharedFixture(t)) }

func testAppendCopy(t *testing.T, fx *fixture) {
	app := fx.site("appendcopy", "append", SiteAppend)
	newInt := fx.siteOfType("appendcopy", "append", SiteAlloc, "int")
	mk := fx.site("appendcopy", "makeslice", SiteAlloc) // make([]T, const) is new([2]T)[:]
	if c := fx.s.contents(fx.subSiteByPath(app, "[*]")); !slices.Equal(c, []uint32{newInt}) {
		t.Errorf("appended array holds %v", fx.siteDescs(c))
	}
	elem := fx.subSiteByPath(mk, "[*]")
	if c := fx.s.contents(elem); !slices.Equal(c, []uint32{newInt}) {
		t.Errorf("copied-to array holds %v", fx.siteDescs(c))
	}
	es := fx.accessesAt("appendcopy", "copy")
	if len(es) != 1 || !fx.has("deepAccess", es[0]) || len(fx.where("read", 0, es[0])) != 1 || len(fx.where("write", 0, es[0])) != 1 {
		t.Errorf("copy: accesses %v", es)
	}
	if w := fx.accessed("appendcopy", "copy", "write"); !slices.Equal(w, []uint32{mk}) {
		t.Errorf("copy writes %v", fx.siteDescs(w))
	}
	if w := fx.accessed("appendcopy", "append", "write"); !hasID(w, app) {
		t.Errorf("append writes %v", fx.siteDescs(w))
	}
	if r := fx.accessed("appendcopy", "index", "read"); !slices.Equal(r, []uint32{elem}) {
		t.Errorf("t[0] reads %v", fx.siteDescs(r))
	}
	// Struct elements: copyContents covers the sub-sites below [*].
	pInt := fx.siteOfType("appendcopy", "structs", SiteAlloc, "int")
	loads := fx.valuesAt("appendcopy", "fields", isInstr[*ssa.UnOp])
	if len(loads) != 2 {
		t.Errorf("@fields: %d loads", len(loads))
	}
	for _, v := range loads {
		if p := fx.s.pointsTo(v); !slices.Equal(p, []uint32{pInt}) {
			t.Errorf("%s points to %v", fx.facts.ValueDesc(v), fx.siteDescs(p))
		}
	}
	bytes := fx.site("appendcopy", "bytes", SiteBytes)
	if r := fx.accessed("appendcopy", "string", "read"); !slices.Equal(r, []uint32{bytes}) {
		t.Errorf("string(b) reads %v", fx.siteDescs(r))
	}
}

func TestMethodValue(t *testing.T) { testMethodValue(t, sharedFixture(t)) }

func testMethodValue(t *testing.T, fx *fixture) {
	f := fx.facts
	newC := fx.site("methodval", "newC", SiteAlloc)
	bound := fx.site("methodval", "bound", SiteClosure)
	fm := f.funcs[fx.where("funcObj", 0, bound)[0][1]]
	if !strings.HasSuffix(fm.String(), "Inc$bound") {
		t.Errorf("bound closure is %s", fm)
	}
	bind := fx.where("closureBind", 0, bound)
	if len(bind) != 1 || !slices.Equal(fx.s.pointsTo(bind[0][2]), []uint32{newC}) {
		t.Errorf("bound receiver %v", bind)
	}
	// The method expression is a function value: one program-wide function object.
	objs := fx.s.contents(fx.globalSite("methodval", "hook"))
	if len(objs) != 1 || f.Site(objs[0]).Kind != SiteFunc || !fx.has("global", objs[0]) ||
		!strings.HasSuffix(f.funcs[fx.where("funcObj", 0, objs[0])[0][1]].String(), "Inc$thunk") {
		t.Errorf("hook's function objects: %v", fx.siteDescs(objs))
	}
	is := fx.callsAt("methodval", "callg")
	if len(is) != 1 || !strings.HasSuffix(strings.Join(fx.calleeNames(is[0]), ","), "Inc$thunk") {
		t.Errorf("hook(c) calls %v", fx.calleeNames(is[0]))
	}
	if w := fx.accessed("methodval", "inc", "write"); !slices.Equal(w, []uint32{fx.subSiteByPath(newC, "n")}) {
		t.Errorf("c.n++ writes %v", fx.siteDescs(w))
	}
	is = fx.callsAt("methodval", "callf")
	if len(is) != 1 || !strings.HasSuffix(strings.Join(fx.calleeNames(is[0]), ","), "Inc$bound") {
		t.Errorf("f() calls %v", fx.calleeNames(is[0]))
	}
}

func TestDeferRecover(t *testing.T) { testDeferRecover(t, sharedFixture(t)) }

func testDeferRecover(t *testing.T, fx *fixture) {
	e := fx.site("deferrecover", "panic", SiteAlloc)
	is := fx.callsAt("deferrecover", "defer")
	if len(is) != 1 || !fx.has("deferCall", is[0]) {
		t.Errorf("defer sites %v", is)
	}
	if len(fx.facts.Tuples("panicVal")) == 0 || len(fx.facts.Tuples("recoverVal")) == 0 {
		t.Fatal("no panicVal/recoverVal")
	}
	r := fx.value("deferrecover", "recover", func(v ssa.Value) bool {
		c, ok := v.(*ssa.Call)
		return ok && c.Call.Value.Name() == "recover"
	})
	if !fx.has("recoverVal", r) || !hasID(fx.s.pointsTo(r), e) {
		t.Errorf("recover() points to %v", fx.siteDescs(fx.s.pointsTo(r)))
	}
}

func TestEmbed(t *testing.T) { testEmbed(t, sharedFixture(t)) }

func testEmbed(t *testing.T, fx *fixture) {
	f := fx.facts
	d := fx.site("embed", "newD", SiteAlloc)
	mu := fx.subSiteByPath(d, "Base", "Mutex")
	if got := f.SiteDesc(mu); got != "site#"+idStr(d)+".Base.Mutex" {
		t.Errorf("SiteDesc = %q", got)
	}
	for _, c := range []struct {
		marker string
		kind   uint32
	}{{"lock", LockLock}, {"unlock", LockUnlock}} {
		is := fx.callsAt("embed", c.marker)
		ok := false
		for _, i := range is {
			for _, tu := range fx.where("lockOp", 0, i) {
				ok = ok || tu[2] == c.kind && hasID(fx.s.pointsTo(tu[1]), mu)
			}
		}
		if !ok {
			t.Errorf("@%s: no lockOp %d on d.Mutex", c.marker, c.kind)
		}
	}
	ht := fx.where("hType", 0, mu)
	if len(ht) != 1 || types.TypeString(f.Type(ht[0][1]), nil) != "*sync.Mutex" {
		t.Errorf("hType of d.Mutex: %v", ht)
	}
	is := fx.callsAt("embed", "invoke")
	var callees []string
	for _, i := range is {
		callees = append(callees, fx.calleeNames(i)...)
	}
	if !slices.Equal(callees, []string{"(*sync.Mutex).Lock"}) {
		t.Errorf("l.Lock() calls %q", callees)
	}
	if w := fx.accessed("embed", "promoted", "write"); !slices.Equal(w, []uint32{fx.subSiteByPath(d, "Base", "val")}) {
		t.Errorf("d.val = nil writes %v", fx.siteDescs(w))
	}
}

func TestGenerics(t *testing.T) { testGenerics(t, sharedFixture(t)) }

func testGenerics(t *testing.T, fx *fixture) {
	p := "github.com/chordgo/chordgo/testdata/pointsto/generics."
	for _, name := range []string{"(*" + p + "Box[*int]).Get", "(*" + p + "Box[string]).Get", p + "Map[*int, *int]"} {
		if _, ok := fx.fnNamed(name); !ok {
			t.Errorf("no instance %s", name)
		}
	}
	for _, name := range []string{"(*" + p + "Box[T]).Get", p + "Map"} {
		if _, ok := fx.fnNamed(name); ok {
			t.Errorf("generic body %s is in M", name)
		}
	}
	newInt := fx.siteOfType("generics", "newBox", SiteAlloc, "int")
	box := fx.siteOfType("generics", "newBox", SiteAlloc, p+"Box[*int]")
	if c := fx.s.contents(fx.subSiteByPath(box, "v")); !slices.Equal(c, []uint32{newInt}) {
		t.Errorf("b.v holds %v", fx.siteDescs(c))
	}
	get := fx.value("generics", "get", isInstr[*ssa.Call])
	if pts := fx.s.pointsTo(get); !slices.Equal(pts, []uint32{newInt}) {
		t.Errorf("b.Get() points to %v", fx.siteDescs(pts))
	}
}

func TestSync(t *testing.T) { testSync(t, sharedFixture(t)) }

func testSync(t *testing.T, fx *fixture) {
	kinds := func(rel, marker string) []uint32 {
		var out []uint32
		for _, i := range fx.callsAt("synclib", marker) {
			for _, tu := range fx.where(rel, 0, i) {
				out = append(out, tu[2])
			}
		}
		return out
	}
	for _, c := range []struct {
		rel, marker string
		kind        uint32
	}{
		{"syncCall", "add", SyncWaitGroupAdd},
		{"syncCall", "done", SyncWaitGroupDone},
		{"syncCall", "wait", SyncWaitGroupWait},
		{"syncCall", "once", SyncOnceDo},
		{"lockOp", "rlock", LockRLock},
		{"lockOp", "runlock", LockRUnlock},
	} {
		if got := kinds(c.rel, c.marker); !slices.Equal(got, []uint32{c.kind}) {
			t.Errorf("@%s: %s kinds %v, want %d", c.marker, c.rel, got, c.kind)
		}
	}
	for _, marker := range []string{"atomicadd", "cntadd"} {
		es := fx.accessesAt("synclib", marker)
		if len(es) != 1 || !fx.has("atomicAccess", es[0]) || len(fx.where("read", 0, es[0])) != 1 || len(fx.where("write", 0, es[0])) != 1 {
			t.Errorf("@%s: atomic accesses %v", marker, es)
		}
	}
	for _, c := range [][2]string{{"pload", "pstore"}, {"vload", "vstore"}, {"poolget", "poolput"}, {"poolget", "poolnew"}} {
		v := fx.value("synclib", c[0], isInstr[*ssa.Call])
		stored := fx.siteOfType("synclib", c[1], SiteAlloc, "github.com/chordgo/chordgo/testdata/pointsto/synclib.T")
		if p := fx.s.pointsTo(v); !hasID(p, stored) {
			t.Errorf("@%s points to %v, want the object stored at @%s", c[0], fx.siteDescs(p), c[1])
		}
	}
}

func TestAsyncCallbacks(t *testing.T) { testAsyncCallbacks(t, sharedFixture(t)) }

func testAsyncCallbacks(t *testing.T, fx *fixture) {
	goCallees := func(is []uint32) []string {
		var out []string
		for _, i := range is {
			if fx.has("goCall", i) {
				out = append(out, fx.calleeNames(i)...)
			}
		}
		return out
	}
	// SetFinalizer(r, f): a synthetic go call site at the registering call runs f(r).
	if got := goCallees(fx.callsAt("timer", "finalizer")); !slices.Equal(got, []string{"github.com/chordgo/chordgo/testdata/pointsto/timer.main$2"}) {
		t.Errorf("SetFinalizer's callback: %q", got)
	}
	newR := fx.site("timer", "newR", SiteAlloc)
	if w := fx.accessed("timer", "finwrite", "write"); !slices.Equal(w, []uint32{fx.subSiteByPath(newR, "n")}) {
		t.Errorf("the finalizer writes %v", fx.siteDescs(w))
	}
	// AfterFunc(d, f) calls newTimer(..., goFunc, f, ...): the runtime later
	// calls goFunc(f), which runs f in a new goroutine.
	afterFunc, ok := fx.fnNamed("time.AfterFunc")
	if !ok {
		t.Fatal("time.AfterFunc not in M")
	}
	var is []uint32
	for _, tu := range fx.where("callSite", 1, afterFunc) {
		is = append(is, tu[0])
	}
	if got := goCallees(is); !slices.Equal(got, []string{"time.goFunc"}) {
		t.Errorf("newTimer's callback: %q", got)
	}
	if len(fx.accessed("timer", "cbwrite", "write")) == 0 {
		t.Errorf("the AfterFunc callback writes nothing")
	}
	if !strings.Contains(fx.facts.CallDesc(is[len(is)-1]), "callback") && !strings.Contains(fx.facts.CallDesc(is[len(is)-2]), "callback") {
		t.Errorf("no synthetic call site description among %q, %q", fx.facts.CallDesc(is[len(is)-2]), fx.facts.CallDesc(is[len(is)-1]))
	}
}

func TestStructCopy(t *testing.T) { testStructCopy(t, sharedFixture(t)) }

func testStructCopy(t *testing.T, fx *fixture) {
	x := fx.site("structcopy", "newx", SiteAlloc)
	// sink = v.a, i.A(), i.(S).a: only x (a union of S's pointers would
	// also give y).
	stored := fx.s.contents(fx.globalSite("structcopy", "sink"))
	if !slices.Equal(stored, []uint32{x}) {
		t.Errorf("sink holds %v, want only x", fx.siteDescs(stored))
	}
	{
		v := fx.value("structcopy", "load", isInstr[*ssa.UnOp])
		pts := fx.s.pointsTo(v)
		if len(pts) != 1 || fx.facts.Site(pts[0]).Kind != SiteValue || !fx.has("copyLoad", v, fx.where("copyLoad", 0, v)[0][1]) {
			t.Errorf("v = *q points to %v", fx.siteDescs(pts))
		}
		a := fx.subSiteByPath(pts[0], "a")
		if c := fx.s.contents(a); !slices.Equal(c, []uint32{x}) {
			t.Errorf("v's tree .a holds %v", fx.siteDescs(c))
		}
	}
}

func TestRoots(t *testing.T) {
	root := repoRoot(t)
	cfg := Config{Dir: root, Patterns: []string{"./" + testdataDir + "/tests/..."}, Tests: true}
	prog, err := Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Errors) > 0 {
		t.Fatalf("errors: %v", prog.Errors)
	}
	type r struct {
		kind RootKind
		name string
		pkg  string
		prog int
	}
	var got []r
	for _, rt := range prog.Roots {
		got = append(got, r{rt.Kind, rt.Name, rt.Func.Pkg.Pkg.Path(), rt.Program})
		if len(rt.Inits) == 0 {
			t.Errorf("root %s has no init", rt.Name)
		}
	}
	p := "github.com/chordgo/chordgo/testdata/pointsto/tests"
	want := []r{
		{Main, "main", "github.com/chordgo/chordgo/testdata/pointsto/tests/cmd", 1},
		{Test, "TestBump", "github.com/chordgo/chordgo/testdata/pointsto/tests/cmd", 2},
		{Test, "TestInc", p, 0},
		{Test, "TestParallelInc", p, 0},
		{Test, "Test", p, 0},
		{Benchmark, "BenchmarkInc", p, 0},
		{Example, "ExampleCounter", p, 0},
		{Test, "TestExt", p + "_test", 0},
		{Fuzz, "FuzzInc", p + "_test", 0},
	}
	byProgName := func(a, b r) int {
		if a.prog != b.prog {
			return a.prog - b.prog
		}
		return strings.Compare(a.name, b.name)
	}
	slices.SortFunc(got, byProgName)
	slices.SortFunc(want, byProgName)
	if !slices.Equal(got, want) || prog.NumPrograms != 3 {
		t.Errorf("roots (%d programs):\n got %v\nwant %v", prog.NumPrograms, got, want)
	}
	// The main root of a package with tests comes from its test variant, and
	// the test program's inits include the external test package's init.
	for _, rt := range prog.Roots {
		if rt.Name == "TestExt" && len(rt.Inits) != 2 {
			t.Errorf("TestExt inits: %v", rt.Inits)
		}
	}

	facts, err := Extract(prog)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range prog.Roots {
		m, ok := facts.FuncID(rt.Func)
		if !ok {
			t.Fatalf("root %s not in M", rt.Name)
		}
		rp := 0
		for _, tu := range facts.Tuples("rootParam") {
			if tu[0] == m {
				rp++
				s := facts.Site(tu[2])
				if s.Kind != SiteParam || !strings.HasPrefix(types.TypeString(s.Type, nil), "testing.") {
					t.Errorf("%s: rootParam site %s", rt.Name, facts.SiteDesc(tu[2]))
				}
			}
		}
		wantParam := 1
		if rt.Kind == Main || rt.Kind == Example {
			wantParam = 0
		}
		if rp != wantParam {
			t.Errorf("%s: %d rootParams", rt.Name, rp)
		}
	}

	// -run selects tests as go test does; the main program stays.
	cfg.Run = "Inc$/sub"
	prog, err = Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, rt := range prog.Roots {
		names = append(names, rt.Name)
	}
	slices.Sort(names)
	if want := []string{"BenchmarkInc", "FuzzInc", "TestInc", "TestParallelInc", "main"}; !slices.Equal(names, want) {
		t.Errorf("-run Inc$/sub: %q, want %q", names, want)
	}

	// Without tests: only main.
	prog, err = Load(Config{Dir: root, Patterns: []string{"./" + testdataDir + "/tests/..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Roots) != 1 || prog.Roots[0].Kind != Main || prog.NumPrograms != 1 {
		t.Errorf("Tests=false: roots %v", prog.Roots)
	}
}

func TestIsTestName(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{{"Test", true}, {"TestX", true}, {"Test_x", true}, {"Test1", true}, {"Testx", false}, {"Testé", false}, {"Tes", false}} {
		if got := isTestName(c.name, "Test"); got != c.want {
			t.Errorf("isTestName(%q) = %v", c.name, got)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	root := repoRoot(t)
	fx := loadFixture(t, Config{Dir: root, Tests: true, Patterns: []string{
		"./" + testdataDir + "/broken", "./" + testdataDir + "/importsbroken", "./" + testdataDir + "/closure",
	}})
	errs := make(map[string]LoadError)
	for _, e := range fx.prog.Errors {
		errs[e.Package] = e
	}
	broken := errs["github.com/chordgo/chordgo/testdata/pointsto/broken"]
	wantPos := filepath.Join(root, testdataDir, "broken", "broken.go") + ":4:9: "
	if len(broken.Errors) != 1 || !strings.HasPrefix(broken.Errors[0], wantPos) {
		t.Errorf("broken: %q, want an error at %s", broken.Errors, wantPos)
	}
	ib := errs["github.com/chordgo/chordgo/testdata/pointsto/importsbroken"]
	if len(ib.Errors) != 1 || !strings.Contains(ib.Errors[0], "imports package with errors github.com/chordgo/chordgo/testdata/pointsto/broken") {
		t.Errorf("importsbroken: %q", ib.Errors)
	}
	if len(errs) != 2 {
		t.Errorf("errors: %v", fx.prog.Errors)
	}
	fx.fn("closure", "main$1") // the good package is analyzed
	for _, p := range fx.prog.Packages {
		if strings.Contains(p.PkgPath, "broken") {
			t.Errorf("package %s was built", p.ID)
		}
	}

	// Nothing to analyze: an error.
	if _, err := Load(Config{Dir: root, Patterns: []string{"./" + testdataDir + "/broken"}}); err == nil {
		t.Error("Load of only a broken package: no error")
	}
	if _, err := Load(Config{Dir: root, Patterns: []string{"./" + testdataDir + "/nonexistent"}}); err == nil {
		t.Error("Load of a nonexistent package: no error")
	}
}

func TestDeterministic(t *testing.T) {
	cfg := Config{Patterns: []string{
		"./" + testdataDir + "/iface", "./" + testdataDir + "/synclib", "./" + testdataDir + "/wrappers", "./" + testdataDir + "/tests/...",
	}, Tests: true}
	a, b := loadFixture(t, cfg), loadFixture(t, cfg)
	for d := range numDomains {
		if a.facts.Size(Domain(d)) != b.facts.Size(Domain(d)) {
			t.Fatalf("domain %s: %d vs %d", Domain(d), a.facts.Size(Domain(d)), b.facts.Size(Domain(d)))
		}
		for id := range a.facts.Size(Domain(d)) {
			if da, db := a.facts.Desc(Domain(d), uint32(id)), b.facts.Desc(Domain(d), uint32(id)); da != db {
				t.Fatalf("%s %d: %q vs %q", Domain(d), id, da, db)
			}
		}
	}
	for _, rel := range a.facts.Relations() {
		_, da := a.facts.Flat(rel)
		_, db := b.facts.Flat(rel)
		if !slices.Equal(da, db) {
			t.Errorf("relation %s differs", rel)
		}
	}
}

func TestWriteDir(t *testing.T) {
	fx := loadFixture(t, Config{Patterns: []string{"./" + testdataDir + "/closure"}})
	f := fx.facts
	schema := f.Schema()
	for _, want := range []string{".type V <: number", ".decl alloc(v:V, h:H)\n.input alloc", ".decl contentStore(base:V, f:F, from:V)", ".decl chanOp(e:E, ch:V, z:Z)"} {
		if !strings.Contains(schema, want) {
			t.Errorf("schema lacks %q", want)
		}
	}
	dir := t.TempDir()
	if err := f.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, rel := range f.Relations() {
		data, err := os.ReadFile(filepath.Join(dir, rel+".facts"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(data) == 0 {
			lines = nil
		}
		if len(lines) != f.Len(rel) {
			t.Errorf("%s.facts: %d lines, %d tuples", rel, len(lines), f.Len(rel))
		}
		for _, l := range lines {
			if len(strings.Split(l, "\t")) != len(f.Columns(rel)) {
				t.Errorf("%s.facts: line %q", rel, l)
				break
			}
		}
	}
	for _, d := range f.Domains() {
		dom, _ := DomainByName(d)
		data, err := os.ReadFile(filepath.Join(dir, d+".map"))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "\n"); n != f.Size(dom) {
			t.Errorf("%s.map: %d lines, size %d", d, n, f.Size(dom))
		}
	}
	mmap, _ := os.ReadFile(filepath.Join(dir, "M.map"))
	if !strings.Contains(string(mmap), "testdata/pointsto/closure.main$1\n") {
		t.Errorf("M.map:\n%s", mmap)
	}
	hmap, _ := os.ReadFile(filepath.Join(dir, "H.map"))
	if !strings.Contains(string(hmap), "main.go:4:2 alloc *int (x)\n") {
		t.Errorf("H.map:\n%s", hmap)
	}
}

func TestTypePredicates(t *testing.T) {
	tc := newTypeClass()
	i := types.Typ[types.Int]
	str := types.Typ[types.String]
	ptr := types.NewPointer(i)
	st := func(ts ...types.Type) types.Type {
		var fs []*types.Var
		for k, t := range ts {
			fs = append(fs, types.NewField(token.NoPos, nil, "f"+strconv.Itoa(k), t, false))
		}
		return types.NewStruct(fs, nil)
	}
	for _, c := range []struct {
		t    types.Type
		want bool
	}{
		{i, false}, {str, false}, {ptr, true}, {types.Typ[types.UnsafePointer], true},
		{types.NewSlice(i), true}, {types.NewMap(str, i), true}, {types.NewChan(types.SendRecv, i), true},
		{types.NewSignatureType(nil, nil, nil, nil, nil, false), true}, {types.NewInterfaceType(nil, nil), true},
		{st(i, str), false}, {st(i, ptr), true}, {types.NewArray(st(i), 3), false}, {types.NewArray(ptr, 3), true},
		{types.NewArray(ptr, 0), false},
		{types.NewTuple(types.NewVar(token.NoPos, nil, "a", i), types.NewVar(token.NoPos, nil, "b", ptr)), true},
	} {
		if got := tc.carriesPointers(c.t); got != c.want {
			t.Errorf("carriesPointers(%s) = %v", c.t, got)
		}
	}
}

// Every access has a source position, the nearest one where go/ssa gives
// none: the load of the embedded value in the wrapper of a promoted
// value-receiver method, among others.
func TestAccessPositions(t *testing.T) {
	fx := sharedFixture(t)
	f := fx.facts
	synthetic := 0
	for e := range uint32(f.Size(DomE)) {
		fn := f.Access(e).Parent()
		if fn.Pkg == nil || !strings.Contains(fn.Pkg.Pkg.Path(), testdataDir) {
			continue
		}
		if fn.Synthetic != "" {
			synthetic++
		}
		if p := f.AccessPos(e); !p.IsValid() || p.Line == 0 {
			t.Errorf("%s: no position", f.AccessDesc(e))
		}
	}
	if synthetic == 0 {
		t.Error("no access in a synthetic function of the testdata: the test checks nothing it is meant to")
	}
}
