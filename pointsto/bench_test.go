package pointsto

import (
	"strings"
	"testing"
	"time"

	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/internal/racesuite"
)

// BenchmarkRaceSuiteFacts loads Go's race-detector test suite (with the
// standard library it uses), builds SSA and extracts the facts. Run it with
// -benchtime=1x -v to see the tuples per relation.
func BenchmarkRaceSuiteFacts(b *testing.B) { benchRaceSuite(b) }

func benchRaceSuite(b *testing.B) {
	suite, err := racesuite.Prepare(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var load, build, extract time.Duration
	var f *Facts
	for b.Loop() {
		f = loadSuite(b, suite.Dir, &load, &build, &extract)
	}
	n := float64(b.N)
	b.ReportMetric(load.Seconds()/n, "load-s")
	b.ReportMetric(build.Seconds()/n, "ssa-s")
	b.ReportMetric(extract.Seconds()/n, "facts-s")
	b.ReportMetric(float64(f.Stats.Funcs), "funcs")
	b.ReportMetric(float64(f.Stats.Instrs), "instrs")
	b.ReportMetric(float64(f.Stats.Values), "values")
	b.ReportMetric(float64(f.Stats.Sites), "sites")
	b.ReportMetric(float64(f.Stats.Tuples), "tuples")
	st := f.Stats
	b.Logf("roots %d; extract phases: reach %v, fields %v, walk %v, methods %v, sort %v",
		len(f.Prog.Roots), st.ReachTime, st.FieldsTime, st.WalkTime, st.MethodsTime, st.SortTime)
	for _, d := range f.Domains() {
		dom, _ := DomainByName(d)
		b.Logf("domain %s %d", d, f.Size(dom))
	}
	for _, r := range f.Relations() {
		b.Logf("relation %s %d", r, f.Len(r))
	}
}

// loadSuite loads the race suite in dir and extracts its facts, adding the
// time of each phase.
func loadSuite(b *testing.B, dir string, load, build, extract *time.Duration) *Facts {
	b.Helper()
	prog, err := Load(Config{Dir: dir, Patterns: []string{"."}, Tests: true, Tags: []string{"race"}})
	if err != nil {
		b.Fatal(err)
	}
	if len(prog.Errors) > 0 {
		b.Fatalf("load errors: %v", prog.Errors)
	}
	t := time.Now()
	f, err := Extract(prog)
	if err != nil {
		b.Fatal(err)
	}
	*extract += time.Since(t)
	*load += prog.LoadTime
	*build += prog.BuildTime
	return f
}

// BenchmarkRaceSuitePointsTo runs the whole pipeline on the race suite,
// io_test.go (net/http, crypto/tls) included: load, SSA, facts, the
// context-insensitive pass and the k-object-sensitive analysis at k = 1,
// reporting each phase. Run it with -benchtime=1x -v to see the sizes.
func BenchmarkRaceSuitePointsTo(b *testing.B) {
	suite, err := racesuite.Prepare(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var load, build, extract, ci, kobj time.Duration
	var res *Result
	ciLen := map[string]int{}
	for b.Loop() {
		f := loadSuite(b, suite.Dir, &load, &build, &extract)
		a, err := NewRecordingAnalyzer(f, func(db *datalog.Database) {
			for _, r := range []string{"reach", "pt", "hpt", "call", "dynType", "assertPass"} {
				ciLen[r] = db.Len(r)
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		t := time.Now()
		res, err = a.Run(NewSigma())
		if err != nil {
			b.Fatal(err)
		}
		kobj += time.Since(t)
		ci += a.CITime
	}
	n := float64(b.N)
	b.ReportMetric(load.Seconds()/n, "load-s")
	b.ReportMetric(build.Seconds()/n, "ssa-s")
	b.ReportMetric(extract.Seconds()/n, "facts-s")
	b.ReportMetric(ci.Seconds()/n, "ci-s")
	b.ReportMetric(kobj.Seconds()/n, "kobj-s")
	b.ReportMetric(float64(res.Contexts.Len()), "contexts")
	for _, r := range []string{"reach", "pt", "hpt", "callEdge"} {
		b.ReportMetric(float64(res.Len(r)), r)
	}
	for _, r := range []string{"reach", "pt", "hpt", "call", "dynType", "assertPass"} {
		b.Logf("ci.dl %s %d", r, ciLen[r])
	}
	for _, r := range []string{"reach", "pt", "hpt", "callEdge", "copyPair", "loadPt", "closureVal", "newObj", "objSite", "subObj", "callCtx"} {
		b.Logf("kobj.dl %s %d", r, res.Len(r))
	}
	var w strings.Builder
	res.Stats.Write(&w)
	b.Logf("kobj.dl rules:\n%s", w.String())
}
