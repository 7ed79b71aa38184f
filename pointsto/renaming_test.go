package pointsto

import "testing"

// Raising k of newOnce's allocation, made in one context, lengthens its
// object's context: the same analysis up to a renaming, which running it
// confirms (the same number of tuples in every relation). Raising k of
// newTwice's, made in two contexts, splits its object: not a renaming.
// Raising k where no context is cut (sameAnalysis's case) renames nothing,
// which is a renaming too.
func TestRenames(t *testing.T) {
	fx := loadFixture(t, Config{Patterns: []string{"./" + testdataDir + "/renaming"}})
	a, err := NewAnalyzer(fx.facts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Run(NewSigma())
	if err != nil {
		t.Fatal(err)
	}
	once := fx.site("renaming", "once", SiteAlloc)
	twice := fx.site("renaming", "twice", SiteAlloc)
	inMain := fx.site("renaming", "int", SiteAlloc)
	for _, tt := range []struct {
		name    string
		raise   map[uint32]int
		renames bool
	}{
		{"one context", map[uint32]int{once: 2}, true},
		{"one context, k past its length", map[uint32]int{once: 5}, true},
		{"two contexts", map[uint32]int{twice: 2}, false},
		{"both", map[uint32]int{once: 2, twice: 2}, false},
		{"no context cut", map[uint32]int{inMain: 3}, true},
	} {
		next := NewSigma()
		for h, k := range tt.raise {
			next.Sites[h] = k
		}
		if got := a.Renames(r, next); got != tt.renames {
			t.Errorf("%s: Renames = %v, want %v", tt.name, got, tt.renames)
		}
		r2, err := a.Run(next)
		if err != nil {
			t.Fatal(err)
		}
		same := true
		for _, rel := range []string{"reach", "pt", "hpt", "callEdge", "closureVal", "newObj", "callCtx", "subObj"} {
			if r.Len(rel) != r2.Len(rel) {
				same = false
			}
		}
		if n := len(siteObjects(r2, twice)); n != 1+tt.raise[twice]/2 {
			t.Errorf("%s: %d objects of newTwice's site, want %d", tt.name, n, 1+tt.raise[twice]/2)
		}
		if os := siteObjects(r2, once); len(os) != 1 || len(r2.Contexts.Elements(os[0])) != min(max(tt.raise[once], 1), 2) {
			t.Errorf("%s: newOnce's objects %v", tt.name, os)
		}
		if same != tt.renames {
			t.Errorf("%s: the run under the raise has the same relation sizes: %v, want %v", tt.name, same, tt.renames)
		}
	}
}

// siteObjects returns the objects of site h.
func siteObjects(r *Result, h uint32) []Ctx {
	var out []Ctx
	for t := range r.Tuples("objSite") {
		if t[1] == h {
			out = append(out, t[0])
		}
	}
	return out
}
