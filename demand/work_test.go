package demand

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/pointsto"
)

// chainProgram returns a ring of n functions (issue 10's hang): each locks
// its node's mutex, writes the node's fields and a global array, starts
// the next with go (fn starts f1), and then hangs a fresh node on its
// node, unlocked. The goroutines start one another without end, so the
// demand loop meets contexts made of go sites that only repeat after n.
func chainProgram(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package main\n\nimport \"sync\"\n\n")
	fmt.Fprintf(&b, "type node struct {\n\tmu   sync.Mutex\n\ta, b int\n\tnext *node\n}\n\nvar slots [%d]int\n\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "func f%d(p *node) {\n\tp.mu.Lock()\n\tp.a = %d\n\tp.b++\n\tp.mu.Unlock()\n\tslots[%d]++\n\tgo f%d(p)\n\tp.next = &node{}\n\tp.next.a = 1\n}\n\n",
			i, i, i-1, i%n+1)
	}
	fmt.Fprintf(&b, "func main() {\n\tgo f1(&node{})\n}\n")
	return b.String()
}

// chainAnalyzer writes chainProgram(n) as a module into a new directory and
// loads it.
func chainAnalyzer(t *testing.T, n int) *pointsto.Analyzer {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module chain\n\ngo 1.23\n", "main.go": chainProgram(n)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return analyzerOf(t, pointsto.Config{Patterns: []string{"."}, Dir: dir})
}

// TestChainWork runs the analysis on generated rings (issue 10: the
// default run did not finish on five functions) and bounds its work, not
// its time. The mhp fixpoints of the last run (Order.Work) stay within a
// cubic in n: measured 89,866 steps at n = 50 and 600,866 at 100 for one
// run at k = 1; 4,124 and 59,049 for the demand loop's last run at n = 5
// and 20 (without the memos of chainOf and chainClosure: 47,909 at n = 5
// and 4,078,924 at 20). The demand loop raises k along the ring one go
// site per run, so without patience (Options.Patience < 0) it runs about n
// times (8 runs at n = 5, 23 at 20), and each run raises some site's k
// (see Run): at most 1 + the raises of the final Sigma. No run removes a
// race, so with the default patience the loop stops after
// DefaultPatience + 1 runs.
func TestChainWork(t *testing.T) {
	for _, tc := range []struct {
		n      int
		demand bool
	}{{5, true}, {20, true}, {50, false}, {100, false}} {
		t.Run(fmt.Sprintf("n=%d,demand=%v", tc.n, tc.demand), func(t *testing.T) {
			a := chainAnalyzer(t, tc.n)
			n := uint64(tc.n)
			res, err := Run(a, Options{Once: !tc.demand, MaxContexts: 5_000_000, Patience: -1})
			if err != nil {
				t.Fatal(err)
			}
			// Any two functions race on p.next (write/write, read/write)
			// and on the fresh nodes' a: n(n+1)/2 + n² + n(n+1)/2 =
			// n(2n+1) access pairs, at every k. slots[i], written by f(i+1)
			// alone before it starts the next, does not race: the ring's
			// instances form one chain (mhp's chained).
			if got, want := len(res.Races.Races), tc.n*(2*tc.n+1); got != want {
				t.Errorf("%d races, want %d", got, want)
			}
			bound := 5_000 + n*n*n
			if tc.demand {
				bound = 10_000 + 8*n*n*n
			}
			t.Logf("mhp work %d, %d runs", res.Races.Order.Work(), len(res.Iterations))
			if w := res.Races.Order.Work(); w > bound {
				t.Errorf("mhp work %d, want at most %d", w, bound)
			}
			if !tc.demand {
				return
			}
			if got, most := len(res.Iterations), tc.n+4; got > most {
				t.Errorf("%d iterations of the demand loop, want at most %d", got, most)
			}
			raises := 0
			for _, k := range res.Sigma.Sites {
				raises += k - res.Sigma.DefaultSite
			}
			for _, k := range res.Sigma.Calls {
				raises += k - res.Sigma.DefaultCalls
			}
			if got := len(res.Iterations); got > 1+raises {
				t.Errorf("%d iterations but only %d raises of k: a run raised nothing", got, raises)
			}
			patient, err := Run(a, Options{MaxContexts: 5_000_000})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(patient.Iterations), DefaultPatience+1; got != want {
				t.Errorf("default patience: %d iterations, want %d", got, want)
			}
			if got, want := len(patient.Races.Races), len(res.Races.Races); got != want {
				t.Errorf("default patience: %d races, want %d", got, want)
			}
		})
	}
}
