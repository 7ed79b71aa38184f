package demand

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
	"github.com/cockroachdb/apd/v3"
)

// Options control the loop.
type Options struct {
	// K, when positive, runs once with k = K for every allocation and call
	// site, for comparison; the loop is off.
	K int
	// Once runs once with k = 1 everywhere (-demand=false).
	Once bool
	// MaxContexts bounds the estimated number of abstract objects and
	// contexts (the set A of the thesis, section 4.4); 0 means no bound.
	MaxContexts int64
	// MaxGrowth bounds each run's estimate at MaxGrowth times the first
	// run's (0: DefaultMaxGrowth; negative: no bound).
	MaxGrowth int
	// Funnel options, passed to every run.
	Races races.Options
	// Context, when it ends, stops the loop at the next run's start or
	// between a run's points-to and its funnel (nil: never).
	Context context.Context
	// Completed, if set, receives the result as it stands after each
	// completed run, while the next one runs: a caller that cannot wait
	// for a run to reach a stopping point reports that one. The loop then
	// keeps no run's points-to and races once the next run starts, so
	// that it holds one run's analysis at a time: a result with Stopped
	// set has neither (nil), and the caller reports the last one Completed
	// received (the same run; only Capped may have grown since).
	Completed func(*Result)
	// Patience is how many runs in a row may remove no race pair before
	// the loop stops (0: DefaultPatience; negative: no limit, the loop
	// stops only when Sigma does).
	Patience int
}

// DefaultPatience lets two runs in a row remove nothing: a raise that
// splits a container before the objects in it removes races only at the
// next run (go-cache: 44, 44, 40, 31 race pairs), but on programs whose
// objects' contexts keep growing (goroutines that start one another in a
// ring) Sigma changes at every run for as many runs as there are go
// sites, while no race falls away.
const DefaultPatience = 2

// DefaultMaxGrowth keeps each run within twice the first run's estimate:
// the first run, at k = 1 with no site split by root, is the analysis the
// caller's budget must afford anyway, and issue 5 asks the whole loop to
// stay within a small multiple of it. Without it one raise can multiply a
// program's contexts: splitting by root a site that most of net/http
// reaches gives each of its functions a context per test (promhttp's tests,
// demand/BENCHMARKS.md).
const DefaultMaxGrowth = 2

// Iteration records one run of the analysis.
type Iteration struct {
	SitesByK  map[int]int // allocation sites per k (Table 4.3)
	Estimate  string      // the estimated size of A before the run, exactly
	Contexts  int         // the contexts the run enumerated (A)
	RacePairs int         // ultimate race pairs (Table 4.5)
	Seconds   float64
}

// Result is the last run's points-to and races, and the iterations.
type Result struct {
	PointsTo *pointsto.Result
	// Races are the last run's races. Their Stats are the first run's: the
	// later runs only check the races before them, so the first is the
	// funnel over all access pairs (Naik's Table 2.4, at k = 1).
	Races      *races.Result
	Sigma      *pointsto.Sigma
	Iterations []Iteration
	// Capped lists the sites whose k was not raised because the estimate
	// would pass MaxContexts.
	Capped []uint32
	// Stopped is why Options.Context ended the loop before Sigma stopped
	// changing (nil: it did not); the races are the last completed run's.
	Stopped error
	// Program is the program analyzed (pointsto.Root.Program) under Each;
	// Run, which analyzes all programs of its analyzer together, leaves it
	// 0.
	Program int
}

// errNoRun is why a loop stopped before its first run completed has no
// result.
var errNoRun = errors.New("demand: stopped before the first run completed")

// Run runs the loop of Naik's Figure 4.8: start with k = 1 everywhere and
// no site split by test root; after each run, take the abstract objects
// the remaining races are on (with their holders and the objects their
// accesses run in), skip those already seen and those whose context
// repeats a site, and raise k for every site in them (allocation sites,
// and the call sites in their contexts) to one more than the object's
// length; split by root the sites through which two tests' goroutines and
// objects may meet (rootSplits); rerun until Sigma stops changing. What
// does not depend on Sigma (loading, SSA, facts, the context-insensitive
// pass) is a's and is reused, and so is the funnel's classification of the
// accesses.
//
// Four shortcuts (doc.go) save runs and work: a run after the first
// checks only the previous run's races, with the previous run's order
// dataflow where its inputs are unchanged; a Sigma whose raises change no
// context (sameAnalysis) is not run, nor one that only renames contexts
// when patience would end the loop after it.
//
// When opts.Context ends, Run returns the last completed run's result with
// Stopped set, or the context's cause if no run completed. Those races are
// sound: a later run only removes races (doc.go).
func Run(a *pointsto.Analyzer, opts Options) (*Result, error) {
	return run(a, opts, races.NewFinder(a.Facts, opts.Races))
}

// run is Run with the funnel's classification of the accesses shared
// between programs.
func run(a *pointsto.Analyzer, opts Options, funnel *races.Finder) (*Result, error) {
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	sigma := pointsto.NewSigma()
	if opts.K > 0 {
		sigma.DefaultSite, sigma.DefaultCalls = opts.K, opts.K
	}
	est := newEstimator(a)
	res := &Result{}
	seen := map[string]bool{}      // objects already refined, by their elements
	var checked map[[2]uint32]bool // the access pairs of the last run's races; nil: all
	var flow *mhp.Flow             // the last run's order's dataflow, for the next to reuse
	var first races.Stats
	// completed is the result as it stands after the last completed run.
	completed := func() *Result {
		out := *res
		out.Iterations = slices.Clone(res.Iterations)
		if res.Races != nil {
			rr := *res.Races
			rr.Stats = first
			out.Races = &rr
		}
		out.Capped = slices.Compact(slices.Sorted(slices.Values(res.Capped)))
		return &out
	}
	stopped := func() (*Result, error) {
		if len(res.Iterations) == 0 {
			return nil, fmt.Errorf("%w: %w", errNoRun, context.Cause(ctx))
		}
		out := completed()
		out.Stopped = context.Cause(ctx)
		return out, nil
	}
	// Termination: a run is followed by another only when refine raised
	// some site's k or split a site by root (else it returns nil), and k
	// only rises, Roots only grows. refine sets k = len(elems)+1 for
	// contexts that repeat no site, so no k passes the number of sites
	// plus one, and there are at most 1 + the number of sites + the sum
	// over sites of (final k - default k) runs: polynomial in the sites.
	// Each run's size is bounded by MaxContexts and MaxGrowth (through the estimate),
	// not by a polynomial: on a ring of n goroutines that start one
	// another, k rises by one go site per run, about n runs, unless
	// patience runs out first (TestChainWork): then at most Patience+1
	// runs follow one another with no race removed.
	patience := opts.Patience
	if patience == 0 {
		patience = DefaultPatience
	}
	idle := 0              // runs in a row that removed no race pair
	var limit *apd.Decimal // the bound on the estimate of a run after the first (nil: none)
	instanceBudget := 0    // the bound on a later run's instance escape input (0: none)
	for {
		if ctx.Done() == nil || opts.Completed != nil {
			// Nothing can stop the loop, or Completed has the last run: let
			// it go before the next, which would otherwise hold two runs'
			// analyses at its peak (bbolt's tests: 6.4 GB, one run 3.6 GB).
			res.PointsTo, res.Races = nil, nil
		}
		if ctx.Err() != nil {
			return stopped()
		}
		start := time.Now()
		estimate := est.size(sigma)
		if est.err != nil {
			return nil, fmt.Errorf("demand: estimating contexts: %w", est.err)
		}
		r, err := a.Run(sigma)
		if err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return stopped()
		}
		rr, err := funnel.FindAfter(r, checked, flow, instanceBudget)
		if err != nil {
			return nil, err
		}
		r.Release() // kept through the next run, or the report
		if checked == nil {
			first = rr.Stats
			if g := maxGrowth(opts); g > 0 {
				instanceBudget = g * max(rr.InstanceWork, 1)
			}
		}
		res.PointsTo, res.Races, res.Sigma = r, rr, sigma
		res.Iterations = append(res.Iterations, Iteration{
			SitesByK:  sitesByK(a.Facts, sigma),
			Estimate:  estimate.Text('f'),
			Contexts:  r.Contexts.Len(),
			RacePairs: len(rr.Races),
			Seconds:   time.Since(start).Seconds(),
		})
		if opts.Completed != nil {
			opts.Completed(completed())
		}
		if opts.K > 0 || opts.Once {
			break
		}
		if n := len(res.Iterations); n > 1 && res.Iterations[n-1].RacePairs >= res.Iterations[n-2].RacePairs {
			idle++
		} else {
			idle = 0
		}
		if patience > 0 && idle >= patience {
			break
		}
		next := refine(r, rr, sigma, seen)
		if limit == nil {
			limit = bound(estimate, opts)
		}
		if next != nil && limit != nil {
			next = est.cap(sigma, next, limit, &res.Capped)
		}
		// A next run that makes r's contexts again up to a renaming
		// (pointsto.Analyzer.Renames) would give r's races again: it would
		// be idle, and if patience would end the loop after it, it need
		// not run; r's races are the ones it would report.
		if next == nil || sameAnalysis(r, next) || idle+1 == patience && a.Renames(r, next) {
			break
		}
		checked, flow = racePairs(rr), rr.Order.Flow()
		sigma = next
	}
	return completed(), nil
}

// bound returns the bound on a run's estimate: MaxContexts, and MaxGrowth
// times the first run's estimate; nil if neither bounds it.
func bound(first *apd.Decimal, opts Options) *apd.Decimal {
	var out *apd.Decimal
	if opts.MaxContexts > 0 {
		out = apd.New(opts.MaxContexts, 0)
	}
	if growth := maxGrowth(opts); growth > 0 {
		var g apd.Decimal
		if _, err := exact.Mul(&g, first, apd.New(int64(growth), 0)); err == nil && (out == nil || g.Cmp(out) < 0) {
			out = &g
		}
	}
	return out
}

// maxGrowth returns the factor by which a later run may pass the first
// (0: none).
func maxGrowth(opts Options) int {
	switch {
	case opts.MaxGrowth == 0:
		return DefaultMaxGrowth
	case opts.MaxGrowth < 0:
		return 0
	}
	return opts.MaxGrowth
}

// refine returns the Sigma for the next run, or nil if nothing changes.
func refine(r *pointsto.Result, rr *races.Result, sigma *pointsto.Sigma, seen map[string]bool) *pointsto.Sigma {
	f := r.Facts
	next := sigma.Clone()
	changed := false
	var objs []pointsto.Ctx
	for _, race := range rr.Races {
		objs = append(objs, race.Locations...)
	}
	objs = append(objs, holders(r, objs)...)
	objs = append(objs, accessObjects(r, rr)...)
	objs = append(objs, dynamicCallers(r, rr)...)
	// Without tests, benchmarks, fuzz targets or examples, no context has a
	// root base to keep.
	if len(f.TestEntries()) > 0 {
		for _, h := range rootSplits(r, rr, objs) {
			if !next.Roots[h] {
				next.Roots[h] = true
				changed = true
			}
		}
	}
	for _, loc := range objs {
		elems := r.Contexts.Elements(loc)
		// A location inside an object has the object's heap context:
		// refine the object's root site.
		elems[0].ID = f.Site(elems[0].ID).Root
		key := fmt.Sprint(elems)
		if seen[key] || repeats(elems) {
			continue
		}
		seen[key] = true
		k := len(elems) + 1
		for _, e := range elems {
			m := next.Calls
			if e.Site {
				m = next.Sites
			}
			old, ok := m[e.ID]
			if !ok {
				old = sigma.DefaultSite
				if !e.Site {
					old = sigma.DefaultCalls
				}
			}
			if k > old {
				m[e.ID] = k
				changed = true
			}
		}
	}
	if !changed {
		return nil
	}
	return next
}

// outermost returns, for each object, the object it lies in (itself if it
// lies in none): fields, elements and contents share their object's heap
// context.
func outermost(r *pointsto.Result) func(pointsto.Ctx) pointsto.Ctx {
	parent := map[pointsto.Ctx]pointsto.Ctx{} // sub-object -> the object it lies in
	for t := range r.Tuples("subObj") {
		parent[t[2]] = t[0]
	}
	// Termination: each step goes to the object o lies in; sub-objects are
	// made by a descent through a site's sub-sites (pointsto's
	// addObject), a finite tree, so no object lies in itself.
	return func(o pointsto.Ctx) pointsto.Ctx {
		for {
			p, ok := parent[o]
			if !ok {
				return o
			}
			o = p
		}
	}
}

// heldIn calls fn(o, o2) for each object o with a location that may point
// to (or into) o2: a field, element or content (hpt), or a closure's free
// variable (closureVal).
func heldIn(r *pointsto.Result, fn func(o, o2 pointsto.Ctx)) {
	for t := range r.Tuples("hpt") {
		fn(t[0], t[1])
	}
	for t := range r.Tuples("closureVal") {
		fn(t[0], t[2])
	}
}

// holders returns the objects that have a field, element or content that
// may point to (or into) one of objs, or a closure bound to one: the
// containers through which the racing accesses reach them. Refining only
// the raced object splits it by its allocation's context, but a container
// that stays merged still hands every split object to every access (one
// abstract cache, two maps).
func holders(r *pointsto.Result, objs []pointsto.Ctx) []pointsto.Ctx {
	cs := r.Contexts
	root := outermost(r)
	raced := map[pointsto.Ctx]bool{}
	for _, o := range objs {
		raced[root(o)] = true
	}
	seen := map[pointsto.Ctx]bool{}
	var out []pointsto.Ctx
	heldIn(r, func(o, o2 pointsto.Ctx) {
		if raced[root(o2)] {
			if h := root(o); !raced[h] && !seen[h] && cs.Site(h) != cs.Site(root(o2)) {
				seen[h] = true
				out = append(out, h)
			}
		}
	})
	slices.Sort(out)
	return out
}

// accessObjects returns the objects in whose context a racing access
// touches its race's locations (a method of a receiver, a closure): while
// such an object stands for several, so does what it reaches (a closure
// made in two objects' methods binds both objects' variables).
func accessObjects(r *pointsto.Result, rr *races.Result) []pointsto.Ctx {
	f, cs := r.Facts, r.Contexts
	root := outermost(r)
	ptrs := map[uint32][]uint32{} // E -> the values it accesses through
	for _, rel := range []string{"read", "write", "mapRead", "mapWrite"} {
		for _, t := range f.Tuples(rel) {
			ptrs[t[0]] = append(ptrs[t[0]], t[1])
		}
	}
	raced := map[uint32]map[pointsto.Ctx]bool{} // V -> the objects its races are on
	for _, race := range rr.Races {
		for _, a := range race.Accesses {
			for _, v := range ptrs[a.E] {
				if raced[v] == nil {
					raced[v] = map[pointsto.Ctx]bool{}
				}
				for _, o := range race.Locations {
					raced[v][root(o)] = true
				}
			}
		}
	}
	seen := map[pointsto.Ctx]bool{}
	var out []pointsto.Ctx
	for t := range r.Tuples("pt") {
		c, v, o := t[0], t[1], t[2]
		if objs := raced[v]; objs != nil && objs[root(o)] && !seen[c] {
			seen[c] = true
			if es := cs.Elements(c); len(es) > 0 && es[0].Site {
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}

// dynamicCallers returns, for the calls through a function value or an
// interface that may call the function of a racing access, the object in
// whose context the call runs (a closure, a receiver) and the objects the
// function value is loaded from there (a captured variable, a field):
// while such an object stands for several, the call merges the values of
// all, and the access's function is called from contexts that never pass
// it (one test's callback run by another test's call through a shared
// helper's closure).
func dynamicCallers(r *pointsto.Result, rr *races.Result) []pointsto.Ctx {
	f, cs := r.Facts, r.Contexts
	raced := map[uint32]bool{} // M of a racing access
	for _, race := range rr.Races {
		for _, a := range race.Accesses {
			raced[f.AccessFunc(a.E)] = true
		}
	}
	loadedFrom := map[uint32][]uint32{} // V -> the pointers it is loaded through
	for _, t := range f.Tuples("load") {
		loadedFrom[t[0]] = append(loadedFrom[t[0]], t[1])
	}
	dynamic := map[uint32][]uint32{} // I -> the pointers its function value is loaded through
	for _, t := range f.Tuples("dynCall") {
		dynamic[t[0]] = append(dynamic[t[0]], loadedFrom[t[1]]...)
	}
	for _, t := range f.Tuples("invoke") {
		dynamic[t[0]] = append(dynamic[t[0]], loadedFrom[t[1]]...)
	}
	seen := map[pointsto.Ctx]bool{}
	var out []pointsto.Ctx
	add := func(o pointsto.Ctx) {
		if !seen[o] {
			seen[o] = true
			if es := cs.Elements(o); len(es) > 0 && es[0].Site {
				out = append(out, o)
			}
		}
	}
	type ctxPtr struct{ c, v uint32 }
	ptrs := map[ctxPtr]bool{}
	for t := range r.Tuples("callEdge") {
		c, i, m := t[0], t[1], t[3]
		if ptr, ok := dynamic[i]; ok && raced[m] {
			add(c)
			for _, v := range ptr {
				ptrs[ctxPtr{c, v}] = true
			}
		}
	}
	for t := range r.Tuples("pt") {
		if ptrs[ctxPtr{t[0], t[1]}] {
			add(t[2])
		}
	}
	slices.Sort(out)
	return out
}

// rootSplits returns the root sites to split by root for the races of rr
// on objs (and their holders): objs' own, those in the contexts the racing
// goroutines are spawned in and start in, and those of the objects on the
// heap paths from the objects the goroutines start in (closures,
// receivers) to objs. A goroutine of one test reaches another test's
// object only through what is merged on such a path; splitting the
// objects alone leaves the path handing both to each goroutine. Unlike k,
// splitting by root unrolls nothing, so recursive contexts are split too.
// The objects the goroutines start and are spawned in are split, not
// refined: their k is not what merges two tests' goroutines.
func rootSplits(r *pointsto.Result, rr *races.Result, objs []pointsto.Ctx) []uint32 {
	f, cs := r.Facts, r.Contexts
	var sites []uint32
	for _, o := range objs {
		sites = append(sites, f.Site(cs.Site(o)).Root)
	}
	var starts []pointsto.Ctx // the objects goroutines start in
	for _, c := range goroutineContexts(rr) {
		for i, e := range cs.Elements(c) {
			if e.Site {
				sites = append(sites, f.Site(e.ID).Root)
				if i == 0 {
					starts = append(starts, c)
				}
			}
		}
	}
	root := outermost(r)
	next := map[pointsto.Ctx][]pointsto.Ctx{}
	heldIn(r, func(o, o2 pointsto.Ctx) {
		next[root(o)] = append(next[root(o)], root(o2))
	})
	from := reachable(starts, root, func(o pointsto.Ctx) []pointsto.Ctx { return next[o] })
	prev := map[pointsto.Ctx][]pointsto.Ctx{}
	for o := range from {
		for _, o2 := range next[o] {
			prev[o2] = append(prev[o2], o)
		}
	}
	to := reachable(objs, root, func(o pointsto.Ctx) []pointsto.Ctx { return prev[o] })
	for o := range to {
		if from[o] {
			sites = append(sites, f.Site(cs.Site(o)).Root)
		}
	}
	slices.Sort(sites)
	return slices.Compact(sites)
}

// reachable returns the objects reachable from the outermost objects of
// starts through step. Termination: each object is expanded once.
func reachable(starts []pointsto.Ctx, root func(pointsto.Ctx) pointsto.Ctx, step func(pointsto.Ctx) []pointsto.Ctx) map[pointsto.Ctx]bool {
	seen := map[pointsto.Ctx]bool{}
	var work []pointsto.Ctx
	for _, o := range starts {
		if o := root(o); !seen[o] {
			seen[o] = true
			work = append(work, o)
		}
	}
	for len(work) > 0 {
		o := work[len(work)-1]
		work = work[:len(work)-1]
		for _, o2 := range step(o) {
			if !seen[o2] {
				seen[o2] = true
				work = append(work, o2)
			}
		}
	}
	return seen
}

// goroutineContexts returns the contexts the goroutines of the races start
// in and are spawned in, sorted.
func goroutineContexts(rr *races.Result) []pointsto.Ctx {
	gs := rr.Goroutines
	racing := map[uint32]bool{}
	for _, race := range rr.Races {
		for _, p := range race.Pairs {
			racing[p[0]], racing[p[1]] = true, true
		}
	}
	var out []pointsto.Ctx
	for g := range racing {
		if gs.List[g].Kind == mhp.GoGoroutine {
			out = append(out, gs.List[g].Ctx)
		}
	}
	for t := range gs.Tuples("threadEntry") {
		if racing[t[0]] {
			out = append(out, t[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// racePairs returns the access pairs (E ids) of the races.
func racePairs(rr *races.Result) map[[2]uint32]bool {
	out := map[[2]uint32]bool{}
	for _, race := range rr.Races {
		out[[2]uint32{race.Accesses[0].E, race.Accesses[1].E}] = true
	}
	return out
}

// sameAnalysis reports whether the analysis under next would give r again:
// never when next splits another site by root, which changes where
// contexts keep their root base. Otherwise Sigma only decides how
// contexts are made, which kobj.dl's newObj and callCtx record: an object
// of site h made in context c is h and the first k(h)-1 elements of c; a
// plain call at i from c runs in i and the first k(i)-1 elements of c (c
// itself if k(i) = 0), unless the callee runs in a context of its own
// whatever k is (the empty one of an initializer, or the caller's for a
// callback the runtime runs later). If no context of a site or call whose
// k changes was cut at its old k, next makes the same contexts in the
// same order, and the same facts, points-to and races.
func sameAnalysis(r *pointsto.Result, next *pointsto.Sigma) bool {
	cs, old := r.Contexts, r.Sigma
	if !maps.Equal(old.Roots, next.Roots) {
		return false // a site split by root changes where contexts keep their root base
	}
	kept := func(c pointsto.Ctx, k int) []pointsto.CtxElem {
		elems := cs.Elements(c)
		return elems[:min(len(elems), max(k-1, 0))]
	}
	for t := range r.Tuples("newObj") {
		c, h := t[0], t[1]
		if k0, k1 := old.SiteK(h), next.SiteK(h); k0 != k1 && len(kept(c, k0)) != len(kept(c, k1)) {
			return false
		}
	}
	callee := func(c pointsto.Ctx, i uint32, k int) []pointsto.CtxElem {
		if k <= 0 {
			return cs.Elements(c)
		}
		return append([]pointsto.CtxElem{{ID: i}}, kept(c, k)...)
	}
	for t := range r.Tuples("callCtx") {
		c, i, c2 := t[0], t[1], t[2]
		k0, k1 := old.CallK(i), next.CallK(i)
		if k0 == k1 {
			continue
		}
		if made := callee(c, i, k0); slices.Equal(cs.Elements(c2), made) {
			if !slices.Equal(made, callee(c, i, k1)) {
				return false
			}
		} else if c2 != c && c2 != pointsto.Epsilon {
			return false // made some other way: it might depend on k
		}
	}
	return true
}

// repeats reports whether a context holds some site twice: raising k
// there would only unroll recursion.
func repeats(elems []pointsto.CtxElem) bool {
	for i := range elems {
		if slices.Contains(elems[i+1:], elems[i]) {
			return true
		}
	}
	return false
}

func sitesByK(f *pointsto.Facts, sigma *pointsto.Sigma) map[int]int {
	out := map[int]int{}
	roots := 0
	for h := range f.Size(pointsto.DomH) {
		if f.Site(uint32(h)).Kind != pointsto.SiteSub {
			roots++
		}
	}
	for _, k := range sigma.Sites {
		out[k]++
	}
	raised := 0
	for _, n := range out {
		raised += n
	}
	out[sigma.DefaultSite] += roots - raised
	return out
}

// estimator bounds the size of A under a Sigma from the
// context-insensitive call graph: a function reached through n call sites
// has at most n contexts of length 1, and so on; an object of site h has
// at most as many heap contexts of length k(h)-1 as its function has
// contexts of that length, and a call that runs its callee in a context
// beginning with the call site (pointsto.Analyzer.ContextCalls) makes at
// most as many contexts as its caller has of length k(i)-1. Each count is
// times the tests that reach it where it keeps a root base: an object of a
// site split by root, a callee that may reach the allocation of such a
// site (pointsto's enumerator, carry). The counts grow exponentially with
// k, so they are exact decimals (apd), not int64.
type estimator struct {
	f       *pointsto.Facts
	callers [][]uint32          // by M: the functions calling it, once per call site
	calls   map[uint32][]uint32 // by I: the callees it runs in contexts beginning with it
	callsTo [][]uint32          // by M: the call sites that run it in contexts beginning with them
	memo    map[[2]uint32]*apd.Decimal
	tests   map[uint32]bool         // the entries that run in root contexts of their own
	roots   map[uint32]*apd.Decimal // by M: the tests that reach it, at least 1
	err     error                   // the first arithmetic error (an exponent out of apd's range)
}

// add sets sum to sum+x, exactly (precision 0: no rounding).
func (e *estimator) add(sum, x *apd.Decimal) {
	if _, err := exact.Add(sum, sum, x); err != nil && e.err == nil {
		e.err = err
	}
}

// sub sets sum to sum-x, exactly.
func (e *estimator) sub(sum, x *apd.Decimal) {
	if _, err := exact.Sub(sum, sum, x); err != nil && e.err == nil {
		e.err = err
	}
}

// mul returns x*y, exactly.
func (e *estimator) mul(x, y *apd.Decimal) *apd.Decimal {
	var out apd.Decimal
	if _, err := exact.Mul(&out, x, y); err != nil && e.err == nil {
		e.err = err
	}
	return &out
}

func newEstimator(a *pointsto.Analyzer) *estimator {
	f := a.Facts
	nM := f.Size(pointsto.DomM)
	e := &estimator{f: f, callers: make([][]uint32, nM), calls: a.ContextCalls(), callsTo: make([][]uint32, nM),
		memo: map[[2]uint32]*apd.Decimal{}, tests: map[uint32]bool{}, roots: map[uint32]*apd.Decimal{}}
	for _, m := range f.TestEntries() {
		e.tests[m] = true
	}
	for i, callees := range a.CallGraph() {
		for _, m := range callees {
			e.callers[m] = append(e.callers[m], f.Caller(i))
		}
	}
	for i, callees := range e.calls {
		for _, m := range callees {
			e.callsTo[m] = append(e.callsTo[m], i)
		}
	}
	for _, is := range e.callsTo {
		slices.Sort(is)
	}
	return e
}

var exact = apd.BaseContext.WithPrecision(0)

// contexts bounds the contexts of length n of function m. Termination: the
// recursion lowers n by one down to 0, and is memoized per (m, n), so it
// computes each pair once: at most |M|·n sums over the callers.
func (e *estimator) contexts(m uint32, n int) *apd.Decimal {
	if n <= 0 {
		return apd.New(1, 0)
	}
	key := [2]uint32{m, uint32(n)}
	if d, ok := e.memo[key]; ok {
		return d
	}
	sum := apd.New(0, 0)
	for _, caller := range e.callers[m] {
		e.add(sum, e.contexts(caller, n-1))
	}
	if sum.IsZero() {
		sum = apd.New(1, 0)
	}
	e.memo[key] = sum
	return sum
}

// rootsOf bounds the root contexts an object allocated in m may have: the
// tests that reach m in the context-insensitive call graph (1 if none: the
// object is on the empty base). Termination: each function is visited
// once per call, and the result is memoized.
func (e *estimator) rootsOf(m uint32) *apd.Decimal {
	if d, ok := e.roots[m]; ok {
		return d
	}
	n := int64(0)
	for _, m2 := range e.reaching([]uint32{m}, nil) {
		if e.tests[m2] {
			n++
		}
	}
	d := apd.New(max(n, 1), 0)
	e.roots[m] = d
	return d
}

// reaching returns the functions that may reach one of fns in the
// context-insensitive call graph (fns included), but for those skip holds
// (nil: none) and those reached only through them. Termination: a function
// is queued once, when it is first marked.
func (e *estimator) reaching(fns []uint32, skip []bool) []uint32 {
	marked := map[uint32]bool{}
	var out []uint32
	for _, m := range fns {
		if !marked[m] && (skip == nil || !skip[m]) {
			marked[m] = true
			out = append(out, m)
		}
	}
	for next := 0; next < len(out); next++ {
		for _, caller := range e.callers[out[next]] {
			if !marked[caller] && (skip == nil || !skip[caller]) {
				marked[caller] = true
				out = append(out, caller)
			}
		}
	}
	return out
}

// carrying returns, by M, whether m's contexts keep their root base under
// sigma: m may reach an allocation of a site split by root.
func (e *estimator) carrying(sigma *pointsto.Sigma) []bool {
	var fns []uint32
	for h := range sigma.Roots {
		if m := e.f.Site(h).Func; m != pointsto.NoID {
			fns = append(fns, m)
		}
	}
	out := make([]bool, len(e.callers))
	for _, m := range e.reaching(fns, nil) {
		out[m] = true
	}
	return out
}

// objects bounds the objects of root site h with k, split by root or not.
func (e *estimator) objects(h uint32, k int, split bool) *apd.Decimal {
	m := e.f.Site(h).Func
	if m == pointsto.NoID {
		return apd.New(1, 0)
	}
	n := e.contexts(m, k-1)
	if split {
		n = e.mul(n, e.rootsOf(m))
	}
	return n
}

// callContexts bounds the contexts the call at i with k makes for a
// callee that keeps its root base (carry) or not.
func (e *estimator) callContexts(i uint32, k int, carry bool) *apd.Decimal {
	if k <= 0 {
		return apd.New(0, 0) // the callee runs in its caller's context
	}
	caller := e.f.Caller(i)
	n := e.contexts(caller, k-1)
	if carry {
		n = e.mul(n, e.rootsOf(caller))
	}
	return n
}

// size estimates |A| under sigma: the objects of every allocation site and
// the contexts of every call that makes them.
func (e *estimator) size(sigma *pointsto.Sigma) *apd.Decimal {
	total := apd.New(0, 0)
	for h := range e.f.Size(pointsto.DomH) {
		if e.f.Site(uint32(h)).Kind != pointsto.SiteSub {
			e.add(total, e.objects(uint32(h), sigma.SiteK(uint32(h)), sigma.Roots[uint32(h)]))
		}
	}
	carry := e.carrying(sigma)
	for m, calls := range e.callsTo {
		for _, i := range calls {
			e.add(total, e.callContexts(i, sigma.CallK(i), carry[m]))
		}
	}
	return total
}

// raise is one change of next over sigma that cap may undo: an allocation
// site's k and its split by root, or a call site's k.
type raise struct {
	call bool
	id   uint32
	cost *apd.Decimal // what it alone adds to the estimate
}

// raises returns next's changes over sigma, costliest first (ties by
// kind, then id: deterministic). A site's cost is its objects' growth and,
// if newly split by root, the root bases of the contexts of the calls it
// makes carry them alone; a call site's, its contexts' growth.
func (e *estimator) raises(sigma, next *pointsto.Sigma) []raise {
	carry := e.carrying(sigma)
	carried := map[uint32]*apd.Decimal{} // by M: what splitting a site of m adds to the call contexts
	var out []raise
	for h := range e.f.Size(pointsto.DomH) {
		h := uint32(h)
		k0, k1, split := sigma.SiteK(h), next.SiteK(h), next.Roots[h] && !sigma.Roots[h]
		if k0 == k1 && !split {
			continue
		}
		cost := apd.New(0, 0)
		e.add(cost, e.objects(h, k1, next.Roots[h]))
		e.sub(cost, e.objects(h, k0, sigma.Roots[h]))
		if m := e.f.Site(h).Func; split && m != pointsto.NoID {
			if _, ok := carried[m]; !ok {
				d := apd.New(0, 0)
				for _, m2 := range e.reaching([]uint32{m}, carry) {
					for _, i := range e.callsTo[m2] {
						e.add(d, e.callContexts(i, sigma.CallK(i), true))
						e.sub(d, e.callContexts(i, sigma.CallK(i), false))
					}
				}
				carried[m] = d
			}
			e.add(cost, carried[m])
		}
		out = append(out, raise{id: h, cost: cost})
	}
	for i, k1 := range next.Calls {
		if k0 := sigma.CallK(i); k1 != k0 {
			cost := apd.New(0, 0)
			for _, m := range e.calls[i] {
				e.add(cost, e.callContexts(i, k1, carry[m]))
				e.sub(cost, e.callContexts(i, k0, carry[m]))
			}
			out = append(out, raise{call: true, id: i, cost: cost})
		}
	}
	slices.SortFunc(out, func(a, b raise) int {
		if c := b.cost.Cmp(a.cost); c != 0 {
			return c
		}
		if a.call != b.call {
			if a.call {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.id, b.id)
	})
	return out
}

// cap undoes the fewest of next's raises over sigma, costliest first, that
// keep the estimate within limit, and records the allocation sites undone
// in capped; nil if no raise is left. The estimate only grows with k and
// with the sites split by root, so undoing a longer prefix of the raises
// never raises it, and the shortest prefix that fits is found by binary
// search.
func (e *estimator) cap(sigma, next *pointsto.Sigma, limit *apd.Decimal, capped *[]uint32) *pointsto.Sigma {
	if e.size(next).Cmp(limit) <= 0 {
		return next
	}
	raised := e.raises(sigma, next)
	without := func(n int) *pointsto.Sigma {
		out := next.Clone()
		for _, r := range raised[:n] {
			if r.call {
				restore(out.Calls, sigma.Calls, r.id)
				continue
			}
			restore(out.Sites, sigma.Sites, r.id)
			if !sigma.Roots[r.id] {
				delete(out.Roots, r.id)
			}
		}
		return out
	}
	// Termination: sort.Search evaluates the estimate O(log n) times.
	n := min(sort.Search(len(raised), func(n int) bool { return e.size(without(n)).Cmp(limit) <= 0 }), len(raised))
	for _, r := range raised[:n] {
		if !r.call {
			*capped = append(*capped, r.id)
		}
	}
	if n == len(raised) {
		return nil
	}
	return without(n)
}

// restore sets m's k for id back to old's (absent: the default).
func restore(m, old map[uint32]int, id uint32) {
	if k, ok := old[id]; ok {
		m[id] = k
	} else {
		delete(m, id)
	}
}

// Analyze loads the packages of cfg, extracts their facts and runs the
// loop with opts: chordgo check's analysis in one call, for tests and
// tools that do not watch its stages. A package that fails to load is an
// error.
func Analyze(cfg pointsto.Config, opts Options) (*Result, error) {
	a, err := pointsto.LoadAnalyzer(cfg)
	if err != nil {
		return nil, err
	}
	return Run(a, opts)
}
