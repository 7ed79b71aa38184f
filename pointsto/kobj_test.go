package pointsto

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// analyze runs the k-object-sensitive analysis on the shared testdata.
func analyze(t *testing.T, fx *fixture, sigma *Sigma) *Result {
	t.Helper()
	a, err := NewAnalyzer(fx.facts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(sigma)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// objects returns every object v may point to, in any context.
func objects(res *Result, v uint32) []Ctx {
	var out []Ctx
	for t := range res.Tuples("pt") {
		if t[1] == v && !slices.Contains(out, t[2]) {
			out = append(out, t[2])
		}
	}
	slices.Sort(out)
	return out
}

func (fx *fixture) callResultOf(marker string) uint32 {
	fx.t.Helper()
	is := fx.callsAt("ctor", marker)
	res := fx.where("callResult", 0, is[0])
	if len(is) != 1 || len(res) != 1 {
		fx.t.Fatalf("@%s: call sites %v, results %v", marker, is, res)
	}
	return res[0][2]
}

// A constructor called from two sites makes one object at k = 1 (its heap
// context is dropped) and two at k = 2 (the heap context is the call site,
// in which newT runs).
func TestKObjConstructor(t *testing.T) { testKObjConstructor(t, sharedFixture(t)) }

func testKObjConstructor(t *testing.T, fx *fixture) {
	site := fx.site("ctor", "alloc", SiteAlloc)
	a, b := fx.callResultOf("call1"), fx.callResultOf("call2")
	tests := []struct {
		k        int
		distinct bool
	}{{1, false}, {2, true}}
	for _, tt := range tests {
		sigma := NewSigma()
		sigma.Sites[site] = tt.k
		res := analyze(t, fx, sigma)
		oa, ob := objects(res, a), objects(res, b)
		if len(oa) != 1 || len(ob) != 1 {
			t.Fatalf("k=%d: a -> %v, b -> %v; want one object each", tt.k, oa, ob)
		}
		if got := oa[0] != ob[0]; got != tt.distinct {
			t.Errorf("k=%d: distinct objects = %v, want %v", tt.k, got, tt.distinct)
		}
		for _, o := range []Ctx{oa[0], ob[0]} {
			elems := res.Contexts.Elements(o)
			if len(elems) != tt.k || !elems[0].Site || elems[0].ID != site {
				t.Errorf("k=%d: object %v, want %d elements starting with site %d", tt.k, elems, tt.k, site)
			}
		}
	}
}

// A pointer-receiver method reached through an interface runs in the
// context of its receiver object and sees only that receiver, although
// the interface value may hold three different objects.
func TestKObjReceiver(t *testing.T) { testKObjReceiver(t, sharedFixture(t)) }

func testKObjReceiver(t *testing.T, fx *fixture) {
	res := analyze(t, fx, NewSigma())
	area := fx.fn("iface", "(*Sq).Area")
	var q uint32
	for _, tu := range fx.where("formal", 0, area) {
		if tu[1] == 0 {
			q = tu[2]
		}
	}
	objs := objects(res, q)
	if len(objs) != 1 {
		t.Fatalf("(*Sq).Area's receiver -> %d objects, want 1", len(objs))
	}
	if got, want := res.Contexts.Site(objs[0]), fx.facts.Site(res.Contexts.Site(objs[0])); want.Kind != SiteAlloc {
		t.Errorf("receiver object of site %d is a %v, want an allocation", got, want.Kind)
	}
	for tu := range res.Tuples("reach") {
		if tu[1] == area && tu[0] != objs[0] {
			t.Errorf("(*Sq).Area runs in context %v, not its receiver %v", res.Contexts.Elements(tu[0]), objs[0])
		}
	}
}

// A closure runs in the context of its closure object, and its free
// variable points to the captured variable's cell.
func TestKObjClosure(t *testing.T) { testKObjClosure(t, sharedFixture(t)) }

func testKObjClosure(t *testing.T, fx *fixture) {
	res := analyze(t, fx, NewSigma())
	fn := fx.fn("closure", "main$1")
	free := fx.where("freeVar", 0, fn)
	if len(free) == 0 {
		t.Fatal("main$1 has no free variables")
	}
	for _, fv := range free {
		objs := objects(res, fv[2])
		if len(objs) != 1 {
			t.Errorf("free variable %s -> %d objects, want 1", fx.facts.ValueDesc(fv[2]), len(objs))
			continue
		}
		if k := fx.facts.Site(res.Contexts.Site(objs[0])).Kind; k != SiteAlloc {
			t.Errorf("free variable %s -> a %v object, want the captured variable's cell", fx.facts.ValueDesc(fv[2]), k)
		}
	}
	for tu := range res.Tuples("reach") {
		if tu[1] == fn {
			if e := res.Contexts.Elements(tu[0]); len(e) != 1 || fx.facts.Site(e[0].ID).Kind != SiteClosure {
				t.Errorf("main$1 runs in context %v, want its closure object", e)
			}
		}
	}
}

// Every call edge of the context-sensitive call graph, with contexts
// dropped, is one of the context-insensitive pass's (whose results bound
// the contexts enumerated), for every k tried.
func TestKObjProjectionWithinCI(t *testing.T) { testKObjProjectionWithinCI(t, sharedFixture(t)) }

func testKObjProjectionWithinCI(t *testing.T, fx *fixture) {
	a, err := NewAnalyzer(fx.facts)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 2, 3} {
		sigma := NewSigma()
		sigma.DefaultSite, sigma.DefaultCalls = k, k
		res, err := a.Run(sigma)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i, callees := range res.CallGraph() {
			for _, m := range callees {
				n++
				if !slices.Contains(a.ci.callees[i], m) {
					t.Errorf("k=%d: edge %s -> %s is not in the context-insensitive call graph", k, fx.facts.CallDesc(i), fx.facts.FuncDesc(m))
				}
			}
		}
		if n == 0 {
			t.Errorf("k=%d: empty call graph", k)
		}
	}
}

// Copying or appending a []struct copies the pointers inside the elements:
// qs[0].p and rs[0].p point to the int that ps[0].p points to.
func TestKObjStructElementCopy(t *testing.T) { testKObjStructElementCopy(t, sharedFixture(t)) }

func testKObjStructElementCopy(t *testing.T, fx *fixture) {
	res := analyze(t, fx, NewSigma())
	pInt := fx.siteOfType("appendcopy", "structs", SiteAlloc, "int")
	loads := fx.valuesAt("appendcopy", "fields", isInstr[*ssa.UnOp])
	if len(loads) != 2 {
		t.Fatalf("@fields: %d loads, want 2", len(loads))
	}
	for _, v := range loads {
		objs := objects(res, v)
		if len(objs) != 1 || res.Contexts.Site(objs[0]) != pInt {
			t.Errorf("%s points to %d objects, want the one int of @structs", fx.facts.ValueDesc(v), len(objs))
		}
	}
}
