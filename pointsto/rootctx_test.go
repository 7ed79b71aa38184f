package pointsto

import (
	"slices"
	"strings"
	"testing"
)

// An object allocated in code a test reaches belongs to that test: two
// tests calling one constructor get two caches at k = 1. An object the
// package initializer allocates belongs to no test, and is one.
func TestRootContexts(t *testing.T) {
	fx := loadFixture(t, Config{Patterns: []string{"./testdata/races/tests_own_callbacks"}, Tests: true})
	_, res := analyzeBoth(t, fx)
	f := fx.facts
	tests := []struct {
		kind  SiteKind
		typ   string // the description of a site in main.go ends with it
		roots []string
	}{
		{SiteAlloc, "*github.com/chordgo/chordgo/testdata/races/tests_own_callbacks.Cache (complit)", []string{"TestA", "TestB"}},
		{SiteAlloc, "*[1]string (slicelit)", []string{""}},
	}
	for _, tt := range tests {
		var sites []uint32
		for h := range f.Size(DomH) {
			desc := f.SiteDesc(uint32(h))
			if f.Site(uint32(h)).Kind == tt.kind && strings.Contains(desc, "tests_own_callbacks/main.go:") && strings.HasSuffix(desc, tt.typ) {
				sites = append(sites, uint32(h))
			}
		}
		if len(sites) != 1 {
			t.Fatalf("sites %q: %v", tt.typ, fx.siteDescs(sites))
		}
		var roots []string
		for tu := range res.Tuples("pt") {
			o := tu[2]
			if res.Contexts.Site(o) != sites[0] {
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
			t.Errorf("%s: objects of roots %q, want %q", tt.typ, roots, tt.roots)
		}
	}
}
