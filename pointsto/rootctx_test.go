package pointsto

import (
	"slices"
	"strings"
	"testing"
)

// An object of a site split by root (Sigma.Roots) allocated in code a test
// reaches belongs to that test: two tests calling one constructor get two
// caches at k = 1. Unsplit, the two tests' caches are one object. An object
// the package initializer allocates belongs to no test, split or not.
func TestRootContexts(t *testing.T) {
	fx := loadFixture(t, Config{Patterns: []string{"./testdata/races/tests_own_callbacks"}, Tests: true})
	f := fx.facts
	site := func(typ string) uint32 {
		var sites []uint32
		for h := range f.Size(DomH) {
			desc := f.SiteDesc(uint32(h))
			if f.Site(uint32(h)).Kind == SiteAlloc && strings.Contains(desc, "tests_own_callbacks/main.go:") && strings.HasSuffix(desc, typ) {
				sites = append(sites, uint32(h))
			}
		}
		if len(sites) != 1 {
			t.Fatalf("sites %q: %v", typ, fx.siteDescs(sites))
		}
		return sites[0]
	}
	cache := site("*github.com/chordgo/chordgo/testdata/races/tests_own_callbacks.Cache (complit)")
	defaults := site("*[1]string (slicelit)")
	tests := []struct {
		name  string
		split []uint32
		site  uint32
		roots []string // the tests whose objects of site points-to has; "" for none
	}{
		{"cache unsplit", nil, cache, []string{""}},
		{"cache split", []uint32{cache}, cache, []string{"TestA", "TestB"}},
		{"initializer's object split", []uint32{cache, defaults}, defaults, []string{""}},
	}
	for _, tt := range tests {
		sigma := NewSigma()
		for _, h := range tt.split {
			sigma.Roots[h] = true
		}
		res := analyze(t, fx, sigma)
		var objs []Ctx
		for tu := range res.Tuples("pt") {
			if res.Contexts.Site(tu[2]) == tt.site {
				objs = append(objs, tu[2])
			}
		}
		roots := rootNames(res, objs)
		if !slices.Equal(roots, tt.roots) {
			t.Errorf("%s: objects of roots %q, want %q", tt.name, roots, tt.roots)
		}
	}
}

// A plain helper handed the objects of a split site keeps its caller's
// root base (Analyzer.Carrying): unmapData, which only stores nil and a
// number through its parameter (so ci.dl reads nothing of the parameter),
// runs in a context per test whose parameter holds that test's DBs alone,
// when the program's own sites are split (TestMany's DBs are opened in the
// closures its goroutines run). Unsplit, one context of it holds every DB.
func TestRootContextsHelpers(t *testing.T) {
	fx := loadFixture(t, Config{Patterns: []string{"./testdata/races/tests_goroutines_own_objects"}, Tests: true})
	f := fx.facts
	const pkg = "github.com/chordgo/chordgo/testdata/races/tests_goroutines_own_objects"
	helper, ok := fx.fnNamed(pkg + ".unmapData")
	if !ok {
		t.Fatal("no unmapData")
	}
	formals := fx.where("formal", 0, helper)
	if len(formals) != 1 {
		t.Fatalf("formals of unmapData: %v", formals)
	}
	param := formals[0][2]
	var own []uint32
	for h := range f.Size(DomH) {
		if f.Site(uint32(h)).Kind != SiteSub && strings.Contains(f.SiteDesc(uint32(h)), "tests_goroutines_own_objects/") {
			own = append(own, uint32(h))
		}
	}
	for _, split := range []bool{false, true} {
		sigma := NewSigma()
		for _, h := range own {
			sigma.Roots[h] = split
		}
		res := analyze(t, fx, sigma)
		var got []string // per context of unmapData, the roots of the DBs its parameter holds
		for tu := range res.Tuples("reach") {
			if tu[1] != helper {
				continue
			}
			got = append(got, strings.Join(rootNames(res, res.PointsTo(tu[0], param)), "+"))
		}
		slices.Sort(got)
		want := []string{""}
		if split {
			want = []string{"TestMany", "TestOne"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("split %v: unmapData's contexts hold the DBs of roots %q, want %q", split, got, want)
		}
	}
}

// rootNames returns the names of the test roots whose objects objs are
// ("" for objects of no root), sorted, once each.
func rootNames(res *Result, objs []Ctx) []string {
	var out []string
	for _, o := range objs {
		name := ""
		if ri, ok := res.Contexts.Root(o); ok {
			name = res.Facts.Prog.Roots[ri].Name
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
