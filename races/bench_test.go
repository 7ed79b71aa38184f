package races_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
)

// BenchmarkParallelStage runs the race funnel at k = 1 on
// testdata/parallel/store with 48 tests (storeTests), each starting
// goroutines that call one store's methods: many access pairs, each in
// many goroutine pairs and on many objects. It reports the parallel
// stage's time per run as parallel-ns/op; ns/op is the whole funnel's.
// Each run builds a new Finder, so nothing is kept from the last.
func BenchmarkParallelStage(b *testing.B) {
	dir, err := storeModule(b.TempDir(), 48)
	if err != nil {
		b.Fatal(err)
	}
	a, err := analyzer(dir, ".")
	if err != nil {
		b.Fatal(err)
	}
	r, err := a.Run(pointsto.NewSigma())
	if err != nil {
		b.Fatal(err)
	}
	var parallel time.Duration
	runs := 0
	for b.Loop() {
		res, err := races.NewFinder(a.Facts, races.Options{}).Find(r, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.Escaping == res.Stats.Parallel || res.Stats.Parallel == 0 {
			b.Fatalf("the parallel stage kept %d of %d pairs: the input no longer exercises it", res.Stats.Parallel, res.Stats.Escaping)
		}
		parallel += res.Stats.Times["parallel"]
		runs++
	}
	b.ReportMetric(float64(parallel.Nanoseconds())/float64(runs), "parallel-ns/op")
}

// storeTest is one test of the store: its own store and bucket, four
// goroutines that share them, and a Wait.
const storeTest = `
func Test%02[1]d(t *testing.T) {
	s := Open()
	defer s.Close()
	b := s.Bucket("b%[1]d")
	b.n, s.stats.Gets = 0, 0
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Put("k", i)
			s.Get("k")
			s.stats.Gets += b.n
		}()
	}
	wg.Wait()
	if b.Len() != 4 || s.stats.Puts != 4 {
		t.Error(b.Len())
	}
}
`

// storeModule writes testdata/parallel/store's package with n tests into
// a module of its own under dir, and returns the module's directory.
func storeModule(dir string, n int) (string, error) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "parallel", "store", "store.go"))
	if err != nil {
		return "", err
	}
	var tests strings.Builder
	tests.WriteString("package store\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&tests, storeTest, i)
	}
	for name, text := range map[string]string{"go.mod": "module store\n\ngo 1.24\n", "store.go": string(src), "store_test.go": tests.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}
