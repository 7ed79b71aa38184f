package pointsto

import (
	"fmt"
	"maps"
	"slices"

	"github.com/chordgo/chordgo/datalog"
)

// Solve runs a later stage's rules over this result: the program's input
// relations get the base relations and kobj.dl's relations of their names
// (AddTo), then the relations in inputs, which the stage computes in Go.
func (r *Result) Solve(prog *datalog.Program, inputs map[string][]uint32) (*datalog.Database, error) {
	db := datalog.NewDatabase(prog)
	if err := r.AddTo(db); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		if err := db.AddFlat(name, inputs[name]); err != nil {
			return nil, fmt.Errorf("pointsto: stage input: %w", err)
		}
	}
	if _, err := db.Run(); err != nil {
		return nil, err
	}
	if r.Record != nil {
		r.Record(db)
	}
	return db, nil
}

// Release drops the indexes kobj.dl's evaluation and the later stages'
// joins built (datalog.Database.Release), once no stage will join over
// r: what reads r then (reports, the demand loop's refinement, PointsTo)
// reads tuples one by one.
func (r *Result) Release() { r.db.Release() }

// Database returns kobj.dl's database under r.Sigma, for reading only: its
// inputs are the base relations, the contexts Go enumerated and ci.dl's
// assertPass and dynType; the later stages read its relations (AddTo).
func (r *Result) Database() *datalog.Database { return r.db }

// AddTo adds to db, for each input relation of db's program, the tuples of
// the base relation or the result relation (of kobj.dl) of that name: the
// next stages' rule files read them by the names doc.go and kobj.dl give.
func (r *Result) AddTo(db *datalog.Database) error {
	for _, rel := range db.Program().Relations {
		if !rel.Input {
			continue
		}
		// Fact relations are sorted without duplicates, and results are
		// sets: no duplicate elimination needed. kobj.dl's database holds
		// the base relations it reads as they are in Facts (loadFacts), so
		// those and its results come with the indexes its run built.
		var err error
		kobjRel, isBase := r.db.Program().Relation(rel.Name), r.Facts.Columns(rel.Name) != nil
		switch {
		case kobjRel != nil && (kobjRel.Input || !isBase):
			err = db.AddFrom(r.db, rel.Name)
		default:
			_, data := r.Facts.Flat(rel.Name)
			err = db.AddDistinct(rel.Name, data)
		}
		if err != nil {
			return fmt.Errorf("pointsto: %w", err)
		}
	}
	return nil
}

// CallGraph returns the context-insensitive pass's call graph: for each
// call site, the functions it may call, sorted. It bounds the call graph of
// every Run.
func (a *Analyzer) CallGraph() map[uint32][]uint32 {
	cg := map[uint32][]uint32{}
	for i, callees := range a.ci.callees {
		if len(callees) > 0 {
			cg[uint32(i)] = slices.Clone(callees)
		}
	}
	return cg
}

// ContextCalls returns, for each call site of the context-insensitive
// pass's call graph, the functions it may call that run in a context
// beginning with the call site (a plain call, or a function called through
// a function value), sorted; the others run in their receiver's or
// closure's context, the caller's, or the empty one. Under Sigma each such
// call makes contexts of its callee (kobj.dl's callCtx): the demand loop
// counts them in its estimate.
func (a *Analyzer) ContextCalls() map[uint32][]uint32 {
	ix := a.ix
	out := map[uint32][]uint32{}
	for i, callees := range a.ci.callees {
		for _, m := range callees {
			if ix.makesContext(uint32(i), m) {
				out[uint32(i)] = append(out[uint32(i)], m)
			}
		}
	}
	return out
}
