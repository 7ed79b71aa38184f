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
		var roots []string
		for tu := range res.Tuples("pt") {
			o := tu[2]
			if res.Contexts.Site(o) != tt.site {
				continue
			}
			name := ""
			if ri, ok := res.Contexts.Root(o); ok {
				name = f.Prog.Roots[ri].Name
			}
			if !slices.Contains(roots, name) {
				roots = append(roots, name)
			}
		}
		slices.Sort(roots)
		if !slices.Equal(roots, tt.roots) {
			t.Errorf("%s: objects of roots %q, want %q", tt.name, roots, tt.roots)
		}
	}
}
