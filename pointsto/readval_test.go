package pointsto

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/datalog"
)

// uncoveredReads returns the body atoms pt(x, _) of prog's rules whose
// value x no readVal rule covers: x is bound by no other positive atom
// rel(..., x, ...) for which a rule readVal(v) :- rel(..., v, ...) has v
// in the same column. ci.dl leaves out the pt facts of values outside
// readVal, which is sound only if every read is covered.
func uncoveredReads(prog *datalog.Program) []string {
	type position struct {
		rel string
		col int
	}
	covered := map[position]bool{}
	for _, r := range prog.Rules {
		if r.Head.Rel.Name != "readVal" || len(r.Body) != 1 || r.Body[0].Negated {
			continue
		}
		v := r.Head.Args[0].Name
		for col, t := range r.Body[0].Args {
			if t.Kind == datalog.VarTerm && t.Name == v {
				covered[position{r.Body[0].Rel.Name, col}] = true
			}
		}
	}
	var out []string
	for _, r := range prog.Rules {
		for k, a := range r.Body {
			if a.Rel.Name != "pt" || a.Negated {
				continue
			}
			x := a.Args[0]
			ok := false
			for j, b := range r.Body {
				if j == k || b.Negated || x.Kind != datalog.VarTerm {
					continue
				}
				for col, t := range b.Args {
					if t.Kind == x.Kind && t.Name == x.Name && covered[position{b.Rel.Name, col}] {
						ok = true
					}
				}
			}
			if !ok {
				out = append(out, fmt.Sprintf("%s: %s", r.Pos, r))
			}
		}
	}
	return out
}

// TestReadValCovers checks that every read of pt in ci.dl is of a value
// readVal covers, and that the check finds a read it does not cover.
func TestReadValCovers(t *testing.T) {
	for _, tt := range []struct {
		name, extra string
		want        int // uncovered reads
	}{
		{"ci.dl", "", 0},
		{"a read through a relation readVal does not cover", "hpt(h, h2) :- varFunc(v, _), pt(v, h), pt(v, h2).", 2},
		{"a read of every value", "panicked(h) :- pt(_, h).", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			prog, err := datalog.Parse("ci.dl", []byte(ciSource+tt.extra))
			if err != nil {
				t.Fatal(err)
			}
			if got := uncoveredReads(prog); len(got) != tt.want {
				t.Errorf("uncovered reads %q, want %d", got, tt.want)
			}
		})
	}
}

// TestReadValDropsOnlyUnread runs ci.dl, and ci.dl with every value read,
// over the shared testdata: the relations the later passes read (call,
// assertPass, dynType) and hpt and reach are the same, and pt lacks only
// facts of values no rule reads, of which there are some.
func TestReadValDropsOnlyUnread(t *testing.T) {
	fx := sharedFixture(t)
	run := func(src string) *datalog.Database {
		prog, err := datalog.Parse("ci.dl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		db := datalog.NewDatabase(prog)
		if err := loadFacts(db, fx.facts); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Run(); err != nil {
			t.Fatal(err)
		}
		return db
	}
	pruned := run(ciSource)
	all := run(ciSource + "readVal(v) :- varFunc(v, _).\nreadVal(v) :- globalUse(v, _).\n")
	tuples := func(db *datalog.Database, rel string) map[string]bool {
		out := map[string]bool{}
		for t := range db.Tuples(rel) {
			out[fmt.Sprint(t)] = true
		}
		return out
	}
	for _, rel := range []string{"call", "assertPass", "dynType", "hpt", "reach"} {
		if got, want := tuples(pruned, rel), tuples(all, rel); !maps.Equal(got, want) {
			t.Errorf("%s: %d tuples, %d with every value read", rel, len(got), len(want))
		}
	}
	read := map[uint32]bool{}
	for t := range pruned.Tuples("readVal") {
		read[t[0]] = true
	}
	var dropped []string
	prunedPt := tuples(pruned, "pt")
	allPt := tuples(all, "pt")
	for tp := range all.Tuples("pt") {
		if read[tp[0]] && !prunedPt[fmt.Sprint(tp)] {
			dropped = append(dropped, fx.facts.ValueDesc(tp[0]))
		}
	}
	for key := range prunedPt {
		if !allPt[key] {
			t.Errorf("pt fact %s only without every value read", key)
		}
	}
	if len(dropped) > 0 {
		slices.Sort(dropped)
		t.Errorf("pt facts of read values lost: %s", strings.Join(dropped, "; "))
	}
	if len(prunedPt) == len(allPt) {
		t.Errorf("no pt fact left out (%d): every value of the testdata is read?", len(prunedPt))
	}
}
