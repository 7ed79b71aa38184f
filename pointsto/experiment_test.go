package pointsto

import (
	"go/types"
	"testing"
	"time"

	"github.com/chordgo/chordgo/internal/racesuite"
	"golang.org/x/tools/go/ssa"
)

// BenchmarkSolverModes runs the reference solver (solve_test.go) on the race
// suite's facts with and without receiver filtering and with
// and without type assertions and box moves, each for at most a minute, and
// logs whether it converged and how many points-to facts are well-typed.
// It takes several minutes: run it with -benchtime=1x -timeout 1200s.
func BenchmarkSolverModes(t *testing.B) {
	suite, err := racesuite.Prepare(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(Config{Dir: suite.Dir, Patterns: []string{"."}, Tests: true, Tags: []string{"race"}})
	if err != nil {
		t.Fatal(err)
	}
	{
		f, err := Extract(p)
		if err != nil {
			t.Fatal(err)
		}
		isAssertOrBox := func(v uint32) bool {
			switch v := f.values[v].(type) {
			case *ssa.TypeAssert:
				return true
			case *ssa.MakeInterface:
				_, isPtr := v.X.Type().Underlying().(*types.Pointer)
				return !isPtr
			}
			return false
		}
		for _, e := range []struct {
			name string
			skip func(rel string, t []uint32) bool
		}{
			{"all facts", nil},
			{"without type-assertion and box moves (unsound)", func(rel string, t []uint32) bool {
				return (rel == "move" || rel == "typeAssert") && isAssertOrBox(t[0])
			}},
		} {
			for _, filter := range []bool{false, true} {
				t0 := time.Now()
				s := newRefSolverOpts(f, time.Now().Add(time.Minute), filter, e.skip)
				total, good, bad := 0, 0, 0
				for n := range s.pts {
					total += int(s.pts[n].Count())
				}
				for v := range s.nV {
					pt, ok := f.values[v].Type().Underlying().(*types.Pointer)
					if !ok {
						continue
					}
					for h, ok := s.pts[v].NextSet(0); ok; h, ok = s.pts[v].NextSet(h + 1) {
						if st := f.sites[h]; st.Type != nil && !st.Array {
							if types.Identical(st.Type, pt.Elem()) {
								good++
							} else {
								bad++
							}
						}
					}
				}
				t.Logf("%s, receiver filtering %v: %.0fs, converged %v, %d points-to facts; pointers to a pointer's element type: %d, to another type: %d",
					e.name, filter, time.Since(t0).Seconds(), len(s.work) == 0, total, good, bad)
			}
		}
	}
}
