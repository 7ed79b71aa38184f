package demand

import (
	"fmt"
	"slices"
	"time"

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
	// Funnel options, passed to every run.
	Races races.Options
}

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
	PointsTo   *pointsto.Result
	Races      *races.Result
	Sigma      *pointsto.Sigma
	Iterations []Iteration
	// Capped lists the sites whose k was not raised because the estimate
	// would pass MaxContexts.
	Capped []uint32
}

// Run runs the loop of Naik's Figure 4.8: start with k = 1 everywhere;
// after each run, take the abstract objects the remaining races are on,
// skip those already seen and those whose context repeats a site, and
// raise k for every site in them (allocation sites, and the call sites in
// their contexts) to one more than the object's length; rerun until Sigma
// stops changing. What does not depend on Sigma (loading, SSA, facts, the
// context-insensitive pass) is a's and is reused.
func Run(a *pointsto.Analyzer, opts Options) (*Result, error) {
	sigma := pointsto.NewSigma()
	if opts.K > 0 {
		sigma.DefaultSite, sigma.DefaultCalls = opts.K, opts.K
	}
	est := newEstimator(a)
	res := &Result{}
	seen := map[string]bool{} // objects already refined, by their elements
	for {
		start := time.Now()
		estimate := est.size(sigma)
		if est.err != nil {
			return nil, fmt.Errorf("demand: estimating contexts: %w", est.err)
		}
		res.PointsTo, res.Races = nil, nil // let the last run's results go before the next
		r, err := a.Run(sigma)
		if err != nil {
			return nil, err
		}
		rr, err := races.Find(r, opts.Races)
		if err != nil {
			return nil, err
		}
		res.PointsTo, res.Races, res.Sigma = r, rr, sigma
		res.Iterations = append(res.Iterations, Iteration{
			SitesByK:  sitesByK(a.Facts, sigma),
			Estimate:  estimate.Text('f'),
			Contexts:  r.Contexts.Len(),
			RacePairs: len(rr.Races),
			Seconds:   time.Since(start).Seconds(),
		})
		if opts.K > 0 || opts.Once {
			break
		}
		next := refine(r, rr, sigma, seen)
		if next != nil && opts.MaxContexts > 0 {
			next = est.cap(sigma, next, opts.MaxContexts, &res.Capped)
		}
		if next == nil {
			break
		}
		sigma = next
	}
	slices.Sort(res.Capped)
	res.Capped = slices.Compact(res.Capped)
	return res, nil
}

// refine returns the Sigma for the next run, or nil if nothing changes.
func refine(r *pointsto.Result, rr *races.Result, sigma *pointsto.Sigma, seen map[string]bool) *pointsto.Sigma {
	f := r.Facts
	next := &pointsto.Sigma{Sites: map[uint32]int{}, Calls: map[uint32]int{}, DefaultSite: sigma.DefaultSite, DefaultCalls: sigma.DefaultCalls}
	for h, k := range sigma.Sites {
		next.Sites[h] = k
	}
	for i, k := range sigma.Calls {
		next.Calls[i] = k
	}
	changed := false
	for _, race := range rr.Races {
		for _, loc := range race.Locations {
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
	}
	if !changed {
		return nil
	}
	return next
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
// contexts of that length. The counts grow exponentially with k, so they
// are exact decimals (apd), not int64.
type estimator struct {
	f       *pointsto.Facts
	callers [][]uint32 // by M: the functions calling it, once per call site
	memo    map[[2]uint32]*apd.Decimal
	err     error // the first arithmetic error (an exponent out of apd's range)
}

// add sets sum to sum+x, exactly (precision 0: no rounding).
func (e *estimator) add(sum, x *apd.Decimal) {
	if _, err := exact.Add(sum, sum, x); err != nil && e.err == nil {
		e.err = err
	}
}

func newEstimator(a *pointsto.Analyzer) *estimator {
	f := a.Facts
	e := &estimator{f: f, callers: make([][]uint32, f.Size(pointsto.DomM)), memo: map[[2]uint32]*apd.Decimal{}}
	for i, callees := range a.CallGraph() {
		for _, m := range callees {
			e.callers[m] = append(e.callers[m], f.Caller(i))
		}
	}
	return e
}

var exact = apd.BaseContext.WithPrecision(0)

// contexts bounds the contexts of length n of function m.
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

// size estimates |A| under sigma: the objects of every allocation site.
func (e *estimator) size(sigma *pointsto.Sigma) *apd.Decimal {
	total := apd.New(0, 0)
	for h := range e.f.Size(pointsto.DomH) {
		s := e.f.Site(uint32(h))
		if s.Kind == pointsto.SiteSub {
			continue
		}
		n := apd.New(1, 0)
		if s.Func != pointsto.NoID {
			n = e.contexts(s.Func, sigma.SiteK(uint32(h))-1)
		}
		e.add(total, n)
	}
	return total
}

// cap undoes the raises of next that would take the estimate past max,
// site by site, and records them in capped; nil if nothing is left.
func (e *estimator) cap(sigma, next *pointsto.Sigma, max int64, capped *[]uint32) *pointsto.Sigma {
	limit := apd.New(max, 0)
	var raised []uint32
	for h, k := range next.Sites {
		if k != sigma.SiteK(h) {
			raised = append(raised, h)
		}
	}
	slices.Sort(raised)
	for _, h := range raised {
		if e.size(next).Cmp(limit) <= 0 {
			break
		}
		if k, ok := sigma.Sites[h]; ok {
			next.Sites[h] = k
		} else {
			delete(next.Sites, h)
		}
		*capped = append(*capped, h)
	}
	if e.size(next).Cmp(limit) > 0 {
		return nil
	}
	return next
}
