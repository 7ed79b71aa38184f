package datalog

import (
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"sync"
)

// Database holds the relations of one evaluation of a Program: add facts
// (from Go or from .facts files), Run, then read the results. After a Run,
// more facts may be added to relations no rule derives, and Run again
// continues from the results so far (see Run).
type Database struct {
	// Trace, when set, receives a line for every evaluation of a rule
	// variant, as it ends: for watching a long run.
	Trace io.Writer

	prog    *Program
	rels    []*relation
	symbols map[*Type]*symbolTable
	ran     bool

	// Kept between runs, for a Run after more facts: the visible tuple
	// ranges, each relation's size at the end of the last Run, which
	// relations rules derive, the column bounds the dense relations were
	// shaped for, and the statistics so far. defined: some rule with a
	// body derives the relation (facts in the program text do not count).
	rg      *ranges
	mark    []uint32
	defined []bool
	bounds  map[*Type]uint64
	stats   *Stats
	plans   map[[2]int]*madePlan // by rule and delta atom (planFor)

	lending sync.Mutex // AddFrom of this database's relations from several goroutines
}

type symbolTable struct {
	ids   map[string]uint32
	names []string
}

// NewDatabase returns an empty database for p.
func NewDatabase(p *Program) *Database {
	db := &Database{prog: p, symbols: map[*Type]*symbolTable{}}
	for _, t := range p.Types {
		if t.Kind == SymbolKind {
			db.symbols[t] = &symbolTable{ids: map[string]uint32{}}
		}
	}
	for _, r := range p.Relations {
		db.rels = append(db.rels, newRelation(r))
	}
	return db
}

// Program returns the program the database evaluates.
func (db *Database) Program() *Program { return db.prog }

// Intern returns the id of symbol s in the symbol type typ, adding it if new.
func (db *Database) Intern(typ *Type, s string) uint32 {
	st := db.symbols[typ]
	id, ok := st.ids[s]
	if !ok {
		id = uint32(len(st.names))
		st.ids[s] = id
		st.names = append(st.names, s)
	}
	return id
}

// Number encodes a number for a column of a number type.
func Number(n int32) uint32 { return uint32(n) }

// Text returns value v of a column of type typ as text: a symbol's name or a
// number in decimal.
func (db *Database) Text(typ *Type, v uint32) string {
	if typ.Kind == NumberKind {
		return strconv.Itoa(int(int32(v)))
	}
	return db.symbols[typ].names[v]
}

func (db *Database) relation(name string) (*relation, error) {
	rel := db.prog.rels[name]
	if rel == nil {
		return nil, fmt.Errorf("unknown relation %s", name)
	}
	return db.rels[rel.index], nil
}

// Add adds a tuple to a relation. Values of symbol columns are ids from
// Intern; values of number columns are from Number (or any uint32 id, for
// dense domains). Add must be called before Run.
func (db *Database) Add(rel string, tuple ...uint32) error {
	r, err := db.relation(rel)
	if err != nil {
		return err
	}
	if db.ran && db.defined[r.decl.index] {
		return fmt.Errorf("adding to %s after Run: rules derive it", rel)
	}
	if len(tuple) != r.arity {
		return fmt.Errorf("%s has %d columns, got a tuple of %d", rel, r.arity, len(tuple))
	}
	for i, v := range tuple {
		if t := r.decl.Attrs[i].Type; t.Kind == SymbolKind && int(v) >= len(db.symbols[t].names) {
			return fmt.Errorf("%s column %d: %d is not an interned symbol of type %s", rel, i, v, t.Name)
		}
	}
	if db.ran {
		for i, v := range tuple {
			db.see(r.decl.Attrs[i].Type, v)
		}
		if r.dense != nil && !r.fits(tuple) {
			r.reshape(db.relationBounds(r, db.bounds))
		}
	}
	r.insert(tuple)
	return nil
}

// AddFlat adds many tuples at once, given one after another in data (its
// length a multiple of the relation's arity), with Add's rules for values.
func (db *Database) AddFlat(rel string, data []uint32) error {
	r, err := db.relation(rel)
	if err != nil {
		return err
	}
	if len(data)%r.arity != 0 {
		return fmt.Errorf("%s has %d columns; %d values are not whole tuples", rel, r.arity, len(data))
	}
	r.reserve(len(data) / r.arity)
	for off := 0; off < len(data); off += r.arity {
		if err := db.Add(rel, data[off:off+r.arity]...); err != nil {
			return err
		}
	}
	return nil
}

// AddDistinct adds tuples like AddFlat, for a caller that knows they are
// distinct and not in the relation yet (another database's relation, a
// sorted fact list) and does not change data afterwards: it skips
// duplicate elimination, the relation may keep data as its tuples instead
// of a copy (Flat's result, or a fact list, is shared between stages), and
// it builds its hash set only if a rule later needs it.
func (db *Database) AddDistinct(rel string, data []uint32) error {
	r, err := db.relation(rel)
	if err != nil {
		return err
	}
	if db.ran || r.n > 0 || r.dense != nil {
		return db.AddFlat(rel, data)
	}
	if len(data)%r.arity != 0 {
		return fmt.Errorf("%s has %d columns; %d values are not whole tuples", rel, r.arity, len(data))
	}
	for _, a := range r.decl.Attrs {
		if a.Type.Kind == SymbolKind {
			return db.AddFlat(rel, data)
		}
	}
	r.set = hashIndex{} // rebuilt by ensureSet when needed
	// Capacity clipped: an append (facts added after a Run) copies first.
	r.rows = data[:len(data):len(data)]
	r.n = len(data) / r.arity
	return nil
}

// AddFrom gives relation rel the tuples of src's relation of the same
// name, like AddDistinct with src.Flat(rel), and also src's indexes on it:
// a later stage's database reads a finished analysis's relations through
// the indexes that analysis already built, instead of building them again.
// The indexes are shared until either database needs them to cover
// tuples it added since, and then copies them first (catchUp); reading
// them from several databases at once is safe. Both relations must have the same number
// columns.
func (db *Database) AddFrom(src *Database, rel string) error {
	r, err := db.relation(rel)
	if err != nil {
		return err
	}
	from, err := src.relation(rel)
	if err != nil {
		return err
	}
	if from.arity != r.arity {
		return fmt.Errorf("%s has %d columns, and %d in the database it is added from", rel, r.arity, from.arity)
	}
	for i, a := range r.decl.Attrs {
		if a.Type.Kind == SymbolKind || from.decl.Attrs[i].Type.Kind == SymbolKind {
			return fmt.Errorf("%s: symbol columns are interned per database, and cannot be shared", rel)
		}
	}
	if err := db.AddDistinct(rel, src.Flat(rel)); err != nil || r.dense != nil || len(r.indexes) > 0 || r.n != from.n {
		return err // (or it was not empty: the tuples were added without indexes)
	}
	// Stages that read src run at once, each adding to its own database:
	// the first brings src's indexes up to date and marks them; the others
	// find nothing to change.
	src.lending.Lock()
	defer src.lending.Unlock()
	from.catchUp()
	for _, ix := range from.indexes {
		if !ix.shared {
			ix.shared = true
		}
	}
	r.indexes = slices.Clone(from.indexes)
	return nil
}

// Release drops what evaluation built besides the tuples: every
// relation's indexes, column counts and hash set (a dense relation keeps its bitsets,
// which are its set), and the plans kept for reuse (planFor), which hold indexes. It is for a database that will be read tuple by
// tuple from now on (Tuples, Flat, Len): a finished stage's database
// lives as long as its results, and its indexes take as much memory as
// its tuples. Contains, Add and Run still work, rebuilding what they
// need; databases that share its indexes (AddFrom) keep them.
func (db *Database) Release() {
	db.lending.Lock()
	defer db.lending.Unlock()
	db.plans = nil
	for _, r := range db.rels {
		r.indexes = nil
		r.keys = nil
		r.freeze()
	}
}

// Flat returns the tuples of a relation one after another, in the order
// they were derived, or nil for an unknown one: the database's own storage,
// to read (or give to AddDistinct), not to change.
func (db *Database) Flat(rel string) []uint32 {
	r, err := db.relation(rel)
	if err != nil {
		return nil
	}
	n := r.n * r.arity
	return r.rows[:n:n]
}

// Len returns the number of tuples in a relation, or 0 for an unknown one.
func (db *Database) Len(rel string) int {
	r, err := db.relation(rel)
	if err != nil {
		return 0
	}
	return r.n
}

// Tuples iterates over the tuples of a relation in the order they were
// derived. The slice passed to yield is only valid during the call.
func (db *Database) Tuples(rel string) iter.Seq[[]uint32] { return db.TuplesFrom(rel, 0) }

// TuplesFrom iterates over the tuples of a relation derived after the first
// from, in the order they were derived: after a Run, with from the length
// the relation had after the Run before it, those that Run added.
func (db *Database) TuplesFrom(rel string, from int) iter.Seq[[]uint32] {
	return func(yield func([]uint32) bool) {
		r, err := db.relation(rel)
		if err != nil {
			return
		}
		for id := from; id < r.n; id++ {
			if !yield(r.tuple(uint32(id))) {
				return
			}
		}
	}
}

// Contains reports whether a relation holds a tuple.
func (db *Database) Contains(rel string, tuple ...uint32) bool {
	r, err := db.relation(rel)
	if err != nil || len(tuple) != r.arity {
		return false
	}
	return r.contains(tuple)
}

// columnBounds returns, per type, one more than the largest value any column
// of that type can hold, or math.MaxUint64 when unknown (negative numbers).
// With no arithmetic in the language, every value in a derived tuple comes
// from a fact or a constant of the same type, so the bounds hold for the
// whole run.
func (db *Database) columnBounds() map[*Type]uint64 {
	db.bounds = map[*Type]uint64{}
	for _, r := range db.rels {
		for i, a := range r.decl.Attrs {
			if r.n > 0 {
				// The largest value as unsigned is negative as a number if
				// any value is: see gives the same bound as for each value.
				top := uint32(0)
				for off := i; off < r.n*r.arity; off += r.arity {
					top = max(top, r.rows[off])
				}
				db.see(a.Type, top)
			}
		}
	}
	for _, rule := range db.prog.Rules {
		for _, a := range append([]Atom{rule.Head}, rule.Body...) {
			for i, t := range a.Args {
				if t.Kind == NumberTerm {
					db.see(a.Rel.Attrs[i].Type, uint32(t.Num))
				}
			}
		}
	}
	db.seeSymbols()
	return db.bounds
}

// see raises the bound of type t to cover value v.
func (db *Database) see(t *Type, v uint32) {
	b := uint64(v) + 1
	if t.Kind == NumberKind && int32(v) < 0 {
		b = math.MaxUint64
	}
	db.bounds[t] = max(db.bounds[t], b)
}

// seeSymbols raises the bounds of symbol types to cover every symbol.
func (db *Database) seeSymbols() {
	for t, st := range db.symbols {
		db.bounds[t] = max(db.bounds[t], uint64(len(st.names)))
	}
}

// Embedded returns a function that parses the rule file text (named name in
// messages) the first time it is called and returns the same program or
// error every time: for rule files a package embeds with go:embed.
func Embedded(name, text string) func() (*Program, error) {
	return sync.OnceValues(func() (*Program, error) {
		p, err := Parse(name, []byte(text))
		if err != nil {
			return nil, fmt.Errorf("embedded rules: %w", err)
		}
		return p, nil
	})
}
