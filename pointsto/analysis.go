package pointsto

import (
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/chordgo/chordgo/datalog"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

var (
	//go:embed ci.dl
	ciSource string
	//go:embed kobj.dl
	kobjSource string
)

var parsePrograms = sync.OnceValues(func() ([2]*datalog.Program, error) {
	var progs [2]*datalog.Program
	for i, src := range []struct{ name, text string }{{"ci.dl", ciSource}, {"kobj.dl", kobjSource}} {
		p, err := datalog.Parse(src.name, []byte(src.text))
		if err != nil {
			return progs, fmt.Errorf("pointsto: embedded rules: %w", err)
		}
		progs[i] = p
	}
	return progs, nil
})

// traceDatalog, when set, receives the rule evaluations of both analyses.
var traceDatalog io.Writer

// Analyzer runs the k-object-sensitive analysis of one program's facts for
// any Sigma; what does not depend on Sigma (the context-insensitive pass) is
// computed once.
type Analyzer struct {
	Facts *Facts
	ci    *ciResult
	ix    *ctxIndex // what the enumerator walks: it does not depend on Sigma
	// CITime is how long the context-insensitive pass took.
	CITime time.Duration
}

// ciResult is what the later passes read of the context-insensitive
// points-to and call graph (ci.dl). Not ci.dl's database: its relations
// and indexes are as large as kobj.dl's at k = 1, and an Analyzer lives
// as long as the analysis of every program made from it.
type ciResult struct {
	callees [][]uint32 // by I: the functions the site may call
	// assertPass (to, h) and dynType (h, t), flat: the sites each type
	// assertion passes and the dynamic types of sites, kobj.dl's filters.
	assertPass, dynType []uint32
	// startRecv, by H: the go statements and the calls of spawn helpers
	// that call a pointer-receiver method on a receiver of the site
	// (startRecvSite).
	startRecv map[uint32][]uint32
}

// NewAnalyzer runs the context-insensitive pass over f.
func NewAnalyzer(f *Facts) (*Analyzer, error) { return NewRecordingAnalyzer(f, nil) }

// LoadAnalyzer loads the packages of cfg, extracts their facts and runs
// the context-insensitive pass: the whole front of the pipeline in one
// call, for tests and tools. A package that fails to load is an error.
func LoadAnalyzer(cfg Config) (*Analyzer, error) {
	prog, err := Load(cfg)
	if err != nil {
		return nil, err
	}
	if len(prog.Errors) > 0 {
		return nil, fmt.Errorf("load errors: %v", prog.Errors)
	}
	f, err := Extract(prog)
	if err != nil {
		return nil, err
	}
	return NewAnalyzer(f)
}

// NewRecordingAnalyzer is NewAnalyzer that also hands record, if not nil,
// ci.dl's database once it has run, for reading only (chordgo facts
// writes its inputs); the analyzer does not keep it.
func NewRecordingAnalyzer(f *Facts, record func(*datalog.Database)) (*Analyzer, error) {
	progs, err := parsePrograms()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	db := datalog.NewDatabase(progs[0])
	db.Trace = traceDatalog
	if err := loadFacts(db, f); err != nil {
		return nil, err
	}
	if _, err := db.Run(); err != nil {
		return nil, err
	}
	if record != nil {
		record(db)
	}
	ci := &ciResult{callees: make([][]uint32, f.Size(DomI)), startRecv: map[uint32][]uint32{}}
	for t := range db.Tuples("startRecvSite") {
		ci.startRecv[t[1]] = append(ci.startRecv[t[1]], t[0])
	}
	for t := range db.Tuples("call") {
		ci.callees[t[0]] = append(ci.callees[t[0]], t[1])
	}
	for t := range db.Tuples("assertPass") {
		ci.assertPass = append(ci.assertPass, t...)
	}
	for t := range db.Tuples("dynType") {
		ci.dynType = append(ci.dynType, t...)
	}
	for _, l := range ci.callees {
		slices.Sort(l)
	}
	return &Analyzer{Facts: f, ci: ci, ix: newCtxIndex(f, ci), CITime: time.Since(start)}, nil
}

// loadFacts adds the base relations the program reads.
func loadFacts(db *datalog.Database, f *Facts) error {
	for _, rel := range db.Program().Relations {
		if !rel.Input || f.Columns(rel.Name) == nil {
			continue
		}
		// Sorted without duplicates (Facts): no duplicate elimination.
		_, data := f.Flat(rel.Name)
		if err := db.AddDistinct(rel.Name, data); err != nil {
			return fmt.Errorf("pointsto: %w", err)
		}
	}
	return nil
}

// deriveUses fills globalUse, callSig and funcSig:
//
//   - a global's address or a function used as a value is one V for the
//     whole program; globalUse says in which functions it is an operand, so
//     it points to its one object in every context those functions run in;
//   - a call through a function value calls only functions of its
//     signature: a cheap type filter on whatever imprecision lets a func
//     value hold functions of other types (a Less closure answering for
//     Swap).
func (f *Facts) deriveUses() {
	globalV := map[ssa.Value]uint32{}
	for v, val := range f.values {
		switch val.(type) {
		case *ssa.Global, *ssa.Function:
			globalV[val] = uint32(v)
		}
	}
	var sigs typeutil.Map // identical signatures, receivers ignored, share an id
	sigID := func(t types.Type) uint32 {
		if id := sigs.At(t); id != nil {
			return id.(uint32)
		}
		id := uint32(len(f.sigs))
		sigs.Set(t, id)
		f.sigs = append(f.sigs, unnamed(t.(*types.Signature)))
		return id
	}
	uses, funcSig, callSig := &f.rels[rGlobalUse], &f.rels[rFuncSig], &f.rels[rCallSig]
	var ops []*ssa.Value
	for m, fn := range f.funcs {
		if fn == nil {
			continue
		}
		funcSig.data = append(funcSig.data, uint32(m), sigID(fn.Signature))
		if !f.analyzed[m] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					if v, ok := globalV[*op]; ok {
						uses.data = append(uses.data, v, uint32(m))
					}
				}
			}
		}
	}
	// A synthetic go site (a callback the runtime calls later) shares its
	// instruction with the registering call: its callee is the callback
	// value (dynCall), with the callback's signature.
	callback := map[uint32]ssa.Value{}
	dyn := &f.rels[rDynCall]
	for k := 0; k+1 < len(dyn.data); k += 2 {
		if i := dyn.data[k]; i > 0 && f.calls[i-1] == f.calls[i] {
			callback[i] = f.values[dyn.data[k+1]]
		}
	}
	for i, call := range f.calls {
		fn := call.Common().Value
		if v, ok := callback[uint32(i)]; ok {
			fn = v
		} else if call.Common().IsInvoke() {
			continue
		}
		if sig, ok := fn.Type().Underlying().(*types.Signature); ok {
			callSig.data = append(callSig.data, uint32(i), sigID(sig))
		}
	}
}

// unnamed returns sig without receiver and parameter names: the one
// description of all signatures identical to it, whichever is met first.
func unnamed(sig *types.Signature) *types.Signature {
	vars := func(t *types.Tuple) *types.Tuple {
		vs := make([]*types.Var, t.Len())
		for i := range vs {
			vs[i] = types.NewParam(token.NoPos, nil, "", t.At(i).Type())
		}
		return types.NewTuple(vs...)
	}
	return types.NewSignatureType(nil, nil, nil, vars(sig.Params()), vars(sig.Results()), sig.Variadic())
}

// Result is the k-object-sensitive points-to and call graph under one Sigma.
type Result struct {
	Facts    *Facts
	Contexts *Contexts
	Sigma    *Sigma
	Stats    *datalog.Stats
	db       *datalog.Database
	entryCtx map[uint32]Ctx // by M: the context a root or init runs in
	ptOnce   sync.Once
	pt       map[[2]uint32][]Ctx // (context, value) -> objects, built on first use
	// Record, when set, receives the database of each later stage's rule
	// file once it has run (Solve's, and the ones a stage fills itself):
	// chordgo facts writes their inputs.
	Record func(db *datalog.Database)
}

// Run computes the k-object-sensitive analysis under sigma.
func (a *Analyzer) Run(sigma *Sigma) (*Result, error) {
	progs, err := parsePrograms()
	if err != nil {
		return nil, err
	}
	e := newEnumerator(a, sigma)
	db := datalog.NewDatabase(progs[1])
	db.Trace = traceDatalog
	if err := loadFacts(db, a.Facts); err != nil {
		return nil, err
	}
	for _, r := range []struct {
		name string
		data []uint32
	}{{"assertPass", a.ci.assertPass}, {"dynType", a.ci.dynType}} {
		if err := db.AddFlat(r.name, r.data); err != nil {
			return nil, fmt.Errorf("pointsto: %w", err)
		}
	}
	// Runs of kobj.dl alternate with the contexts of what they reach (see
	// enumerator), until a run reaches nothing new.
	var stats *datalog.Stats
	var entries []uint32 // entryCtx, flat
	for seen := 0; ; {
		cf := e.take()
		entries = append(entries, cf.entryCtx...)
		if err := cf.add(db); err != nil {
			return nil, err
		}
		if stats, err = db.Run(); err != nil {
			return nil, err
		}
		n := db.Len("reach")
		for t := range db.TuplesFrom("reach", seen) {
			e.reached(t[1], t[0])
		}
		seen = n
		if e.out.empty() {
			break
		}
	}
	cs := e.cs
	entryCtx := map[uint32]Ctx{}
	for k := 0; k < len(entries); k += 2 {
		entryCtx[entries[k+1]] = entries[k]
	}
	return &Result{Facts: a.Facts, Contexts: cs, Sigma: sigma, Stats: stats, db: db, entryCtx: entryCtx}, nil
}

// EntryContext returns the context in which entry m (relation entry: a
// root or an initializer) runs: a test's root context, or Epsilon.
func (r *Result) EntryContext(m uint32) Ctx { return r.entryCtx[m] }

// PointsTo returns the objects value v may point to in context c, sorted.
func (r *Result) PointsTo(c Ctx, v uint32) []Ctx {
	r.ptOnce.Do(func() {
		r.pt = map[[2]uint32][]Ctx{}
		for t := range r.db.Tuples("pt") {
			key := [2]uint32{t[0], t[1]}
			r.pt[key] = append(r.pt[key], t[2])
		}
	})
	objs := slices.Clone(r.pt[[2]uint32{c, v}])
	slices.Sort(objs)
	return objs
}

// Tuples iterates over a relation of the result (reach, pt, hpt, callEdge;
// see kobj.dl for their columns).
func (r *Result) Tuples(rel string) func(func([]uint32) bool) { return r.db.Tuples(rel) }

// Len returns the number of tuples of a relation of the result.
func (r *Result) Len(rel string) int { return r.db.Len(rel) }

// CallGraph returns the context-insensitive projection of the call graph:
// for each call site, the functions it may call, sorted.
func (r *Result) CallGraph() map[uint32][]uint32 {
	cg := map[uint32][]uint32{}
	for t := range r.db.Tuples("callEdge") {
		if !slices.Contains(cg[t[1]], t[3]) {
			cg[t[1]] = append(cg[t[1]], t[3])
		}
	}
	for _, l := range cg {
		slices.Sort(l)
	}
	return cg
}

// hasPointerReceiver reports whether fn is a method with a pointer receiver:
// such methods run in the context of their receiver object.
func hasPointerReceiver(fn *ssa.Function) bool {
	if fn == nil || fn.Signature.Recv() == nil {
		return false
	}
	_, ok := fn.Signature.Recv().Type().Underlying().(*types.Pointer)
	return ok
}
