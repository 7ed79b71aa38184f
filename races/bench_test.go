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
// many goroutine pairs and on many objects, whose functions have a call
// site in each test. It reports the parallel stage's time per run as
// parallel-ns/op, the unlocked stage's (its lock proofs and the proof per
// call path) as unlocked-ns/op; ns/op is the whole funnel's.
// Each run builds a new Finder, so nothing is kept from the last.
func BenchmarkParallelStage(b *testing.B) {
	dir, err := storeModule(b.TempDir(), 48)
	benchFunnel(b, dir, err, func(st races.Stats) error {
		if st.Escaping == st.Parallel || st.Parallel == 0 {
			return fmt.Errorf("the parallel stage kept %d of %d pairs: the input no longer exercises it", st.Parallel, st.Escaping)
		}
		return nil
	}, "parallel", "unlocked")
}

// benchFunnel runs the race funnel at k = 1 on the module in dir (err:
// writing it failed), a new Finder each time, fails where exercised
// says the input no longer exercises what it should, and reports the
// time per run of each stage named as <stage>-ns/op.
func benchFunnel(b *testing.B, dir string, err error, exercised func(races.Stats) error, stages ...string) {
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
	times := make([]time.Duration, len(stages))
	runs := 0
	for b.Loop() {
		res, err := races.NewFinder(a.Facts, races.Options{}).Find(r, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := exercised(res.Stats); err != nil {
			b.Fatal(err)
		}
		for k, stage := range stages {
			times[k] += res.Stats.Times[stage]
		}
		runs++
	}
	for k, stage := range stages {
		b.ReportMetric(float64(times[k].Nanoseconds())/float64(runs), stage+"-ns/op")
	}
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
	return writeModule(dir, "store", string(src), storeTest, n)
}

// writeModule writes a module of one package, name, with source src and
// a test file of n tests, test formatted with each test's number.
func writeModule(dir, name, src, test string, n int) (string, error) {
	var tests strings.Builder
	fmt.Fprintf(&tests, "package %s\n\nimport (\n\t\"sync\"\n\t\"testing\"\n)\n", name)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&tests, test, i)
	}
	for file, text := range map[string]string{"go.mod": "module " + name + "\n\ngo 1.24\n", name + ".go": src, name + "_test.go": tests.String()} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// BenchmarkCallPaths runs the race funnel at k = 1 on a module whose
// racing accesses sit in helpers four calls deep that every test calls,
// from its own goroutines, with and without a lock, and from the test
// itself (callPathsSrc, callPathsTest), so that the proof per call path
// (callpaths.go) follows many call sites up several levels for many
// goroutine pairs, with and without a lock on the other side: the shape
// of nats.go's and this repository's tests. It reports the unlocked
// stage's time per run as unlocked-ns/op (which includes waiting for the
// locksets, computed meanwhile), the proof's own as callpaths-ns/op;
// ns/op is the whole funnel's.
func BenchmarkCallPaths(b *testing.B) {
	dir, err := writeModule(b.TempDir(), "paths", callPathsSrc, callPathsTest, 48)
	benchFunnel(b, dir, err, func(st races.Stats) error {
		if st.Unlocked == 0 {
			return fmt.Errorf("no pair left of %d: the input no longer exercises the unlocked stage", st.Parallel)
		}
		return nil
	}, "unlocked", "callpaths")
}

// callPathsSrc is the package of BenchmarkCallPaths: counters written
// four calls below the methods the tests call, one of them under the
// object's lock.
const callPathsSrc = `package paths

import "sync"

// Obj is counters and a lock that only Locked takes.
type Obj struct {
	mu                           sync.Mutex
	a, b, c, d, e, f, g, h, i, j int
}

func (o *Obj) h0() {
	o.a++
	o.b++
	o.c++
	o.d++
	o.e++
	o.f++
	o.g++
	o.h++
	o.i++
	o.j++
}

func (o *Obj) h1() { o.h0() }
func (o *Obj) h2() { o.h1() }
func (o *Obj) h3() { o.h2() }

// Locked runs the helpers under the lock.
func (o *Obj) Locked() {
	o.mu.Lock()
	o.h3()
	o.mu.Unlock()
}
`

// callPathsTest is one test of BenchmarkCallPaths: two goroutines that
// call the helpers, with and without the lock, one that calls them only
// under the lock, and the test, which calls them too.
const callPathsTest = `
func Test%02[1]d(t *testing.T) {
	o := &Obj{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o.h3()
			o.Locked()
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		o.Locked()
	}()
	o.h2()
	wg.Wait()
}
`
