package pointsto

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/ssa"
)

const assertsPkg = "github.com/chordgo/chordgo/testdata/pointsto/asserts"

// sitesOf returns the sites of the objects v may point to, in any context,
// by the k-object-sensitive analysis, and by the context-insensitive pass.
func sitesOf(pass *ciPass, res *Result, v uint32) (kobj, ci []uint32) {
	for _, o := range objects(res, v) {
		kobj = append(kobj, res.Contexts.Site(o))
	}
	slices.Sort(kobj)
	return slices.Compact(kobj), pass.pt[v]
}

func analyzeBoth(t *testing.T, fx *fixture) (*ciPass, *Result) {
	t.Helper()
	a, pass := analyzeCI(t, fx.facts)
	res, err := a.Run(NewSigma())
	if err != nil {
		t.Fatal(err)
	}
	return pass, res
}

// A type assertion passes only the objects whose dynamic type is the
// asserted type, or implements the asserted interface: i holds an *A or a
// *B.
func TestTypeAssertFilter(t *testing.T) {
	fx := sharedFixture(t)
	pass, res := analyzeBoth(t, fx)
	newA := fx.site("asserts", "newA", SiteAlloc)
	newB := fx.site("asserts", "newB", SiteAlloc)
	for _, tt := range []struct {
		marker string
		want   []uint32
	}{
		{"assertA", []uint32{newA}},
		{"assertB", []uint32{newB}},
		{"assertS", []uint32{newA}}, // *A has String, *B does not
		{"switch", []uint32{newB}},  // case *B
	} {
		vs := fx.valuesAt("asserts", tt.marker, isInstr[*ssa.TypeAssert])
		if len(vs) != 1 {
			t.Fatalf("@%s: %d type assertions", tt.marker, len(vs))
		}
		if !fx.has("typeAssert", vs[0], fx.where("typeAssert", 0, vs[0])[0][1]) || len(fx.where("move", 0, vs[0])) != 0 {
			t.Errorf("@%s: not a typeAssert fact", tt.marker)
		}
		kobj, ci := sitesOf(pass, res, vs[0])
		if !slices.Equal(kobj, tt.want) || !slices.Equal(ci, tt.want) {
			t.Errorf("@%s: points to %v (context-insensitive %v), want %v", tt.marker, fx.siteDescs(kobj), fx.siteDescs(ci), fx.siteDescs(tt.want))
		}
		// main runs in the empty context.
		if objs := res.PointsTo(Epsilon, vs[0]); len(objs) != len(tt.want) || res.Contexts.Site(objs[0]) != tt.want[0] {
			t.Errorf("@%s: PointsTo(Epsilon) = %v", tt.marker, objs)
		}
	}
}

// The results of a call with two results flow to their own Extracts.
func TestCallResultsApart(t *testing.T) {
	fx := sharedFixture(t)
	pass, res := analyzeBoth(t, fx)
	sa := fx.siteOfType("asserts", "two", SiteAlloc, assertsPkg+".A")
	sb := fx.siteOfType("asserts", "two", SiteAlloc, assertsPkg+".B")
	is := fx.callsAt("asserts", "call")
	if len(is) != 1 {
		t.Fatalf("@call: %d call sites", len(is))
	}
	rs := fx.where("callResult", 0, is[0])
	if len(rs) != 2 {
		t.Fatalf("@call: callResult %v, want two", rs)
	}
	for _, r := range rs {
		want := []uint32{sa}
		if r[1] == 1 {
			want = []uint32{sb}
		}
		kobj, ci := sitesOf(pass, res, r[2])
		if !slices.Equal(kobj, want) || !slices.Equal(ci, want) {
			t.Errorf("result %d points to %v (context-insensitive %v), want %v", r[1], fx.siteDescs(kobj), fx.siteDescs(ci), fx.siteDescs(want))
		}
	}
}

// A value receiver of a named slice type, called through an interface,
// gets the backing array the interface holds besides the box, so l[0] is
// x; and an interface call dispatches on the type the pointer had when it
// was put into the interface, (*D), not on its allocated type (*C).
func TestInterfaceReceivers(t *testing.T) {
	fx := sharedFixture(t)
	pass, res := analyzeBoth(t, fx)
	x := fx.site("asserts", "x", SiteAlloc)
	first := fx.value("asserts", "first", isInstr[*ssa.Call])
	if kobj, ci := sitesOf(pass, res, first); !slices.Equal(kobj, []uint32{x}) || !slices.Equal(ci, []uint32{x}) {
		t.Errorf("f.First() points to %v (context-insensitive %v), want x", fx.siteDescs(kobj), fx.siteDescs(ci))
	}
	is := fx.callsAt("asserts", "name")
	var names []string
	for _, i := range is {
		for _, m := range res.CallGraph()[i] {
			names = append(names, fx.facts.Func(m).String())
		}
	}
	want := "(*" + assertsPkg + ".D).Name"
	if !slices.Contains(names, want) || slices.Contains(names, "(*"+assertsPkg+".C).Name") {
		t.Errorf("n.Name() calls %v, want %s and not C's", names, want)
	}
}
