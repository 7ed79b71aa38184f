package pointsto

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// liveBlocks reports, by block index, which blocks of fn can run: sparse
// conditional constant propagation (Wegman and Zadeck) over fn's SSA
// values. A branch on a condition that is constant in every execution
// leaves its other successor dead, and code in a dead block never runs, so
// it neither accesses memory nor calls anything. go/ssa folds constant
// expressions of the source but not SSA values that become constant, such
// as a variable that is never reassigned (x := 0; if x == 1 && ...).
func liveBlocks(fn *ssa.Function) *propagation { return propagate(fn, nil) }

// LiveBlocks reports, by block index, which blocks of fn can run in a run
// whose parameters hold the given constants (liveBlocks, with those
// parameters known instead of varying): mhp asks it for a function in a
// context whose callers all pass the same constants.
func LiveBlocks(fn *ssa.Function, params map[*ssa.Parameter]constant.Value) []bool {
	return propagate(fn, params).live
}

func propagate(fn *ssa.Function, params map[*ssa.Parameter]constant.Value) *propagation {
	p := &propagation{fn: fn, vals: map[ssa.Value]lattice{}, live: make([]bool, len(fn.Blocks)),
		edges: map[[2]int]bool{}, freeVars: map[*ssa.FreeVar]lattice{}, params: params}
	p.live[0] = true
	if fn.Recover != nil {
		p.live[fn.Recover.Index] = true // entered by a panic, from anywhere
	}
	// The lattice is finite and every step only lowers values and adds
	// edges, so repeating whole passes reaches the fixpoint.
	for p.changed = true; p.changed; {
		p.changed = false
		for _, b := range fn.Blocks {
			if p.live[b.Index] {
				p.block(b)
			}
		}
	}
	return p
}

// lattice is a value's state: unknown (no run reaches its definition yet),
// one constant in every run, or varying.
type lattice struct {
	state latState
	c     constant.Value
}

type latState uint8

const (
	unknown latState = iota
	known
	varying
)

var bottom = lattice{state: varying}

type propagation struct {
	fn       *ssa.Function
	vals     map[ssa.Value]lattice
	live     []bool
	edges    map[[2]int]bool // pred index, succ index: the branch may be taken
	freeVars map[*ssa.FreeVar]lattice
	params   map[*ssa.Parameter]constant.Value // parameters known to hold a constant
	changed  bool
}

func (p *propagation) value(v ssa.Value) lattice {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil || !isBasic(v.Type()) {
			return bottom
		}
		return lattice{state: known, c: v.Value}
	case *ssa.Parameter:
		if c, ok := p.params[v]; ok {
			return lattice{state: known, c: c}
		}
	default:
		if in, ok := v.(ssa.Instruction); ok && in.Parent() == p.fn {
			return p.vals[v]
		}
	}
	return bottom // parameters, free variables, globals, functions
}

func (p *propagation) set(v ssa.Value, l lattice) {
	old := p.vals[v]
	if l.state == known && old.state == known && !constant.Compare(old.c, token.EQL, l.c) {
		l = bottom
	}
	if l.state > old.state {
		p.vals[v] = l
		p.changed = true
	}
}

func (p *propagation) edge(from, to *ssa.BasicBlock) {
	if !p.edges[[2]int{from.Index, to.Index}] {
		p.edges[[2]int{from.Index, to.Index}] = true
		p.live[to.Index] = true
		p.changed = true
	}
}

func (p *propagation) block(b *ssa.BasicBlock) {
	for i, instr := range b.Instrs {
		switch in := instr.(type) {
		case *ssa.Phi:
			l := lattice{}
			for k, pred := range b.Preds {
				if p.edges[[2]int{pred.Index, b.Index}] {
					l = meet(l, p.value(in.Edges[k]))
				}
			}
			p.set(in, l)
		case *ssa.If:
			switch c := p.value(in.Cond); c.state {
			case known:
				if constant.BoolVal(c.c) {
					p.edge(b, b.Succs[0])
				} else {
					p.edge(b, b.Succs[1])
				}
			case varying:
				p.edge(b, b.Succs[0])
				p.edge(b, b.Succs[1])
			}
		case *ssa.Jump:
			p.edge(b, b.Succs[0])
		case *ssa.BinOp:
			p.set(in, p.binOp(in))
		case *ssa.UnOp:
			p.set(in, p.unOp(in, b.Instrs[:i]))
		case ssa.Value:
			p.set(in, bottom)
		}
	}
}

func meet(a, b lattice) lattice {
	switch {
	case a.state == unknown:
		return b
	case b.state == unknown:
		return a
	case a.state == known && b.state == known && constant.Compare(a.c, token.EQL, b.c):
		return a
	}
	return bottom
}

func (p *propagation) binOp(in *ssa.BinOp) lattice {
	x, y := p.value(in.X), p.value(in.Y)
	if x.state == varying || y.state == varying {
		return bottom
	}
	if x.state == unknown || y.state == unknown {
		return lattice{}
	}
	switch in.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		if x.c.Kind() != y.c.Kind() {
			return bottom
		}
		return lattice{state: known, c: constant.MakeBool(constant.Compare(x.c, in.Op, y.c))}
	case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.AND_NOT:
		if !isInteger(in.Type()) || x.c.Kind() != constant.Int || y.c.Kind() != constant.Int {
			return bottom
		}
		return representable(constant.BinaryOp(x.c, in.Op, y.c), in.Type())
	}
	return bottom // division may panic, shifts and floats need more care
}

// unOp folds ! and - of constants, a load from a variable just allocated
// (zeroed) whose address nothing between has used (no other code can have
// stored to it yet), a load of a captured variable that holds one
// constant for good, and a load of a field of a local allocation that
// one store wrote (fieldAt).
func (p *propagation) unOp(in *ssa.UnOp, before []ssa.Instruction) lattice {
	switch in.Op {
	case token.MUL:
		if fa, ok := in.X.(*ssa.FieldAddr); ok {
			if a, ok := fa.X.(*ssa.Alloc); ok {
				if v := fieldAt(a, fa.Field, in); v != nil {
					return p.value(v)
				}
			}
			return bottom
		}
		if fv, ok := in.X.(*ssa.FreeVar); ok {
			l, ok := p.freeVars[fv]
			if !ok {
				l = p.captured(fv)
				p.freeVars[fv] = l
			}
			return l
		}
		alloc, ok := in.X.(*ssa.Alloc)
		if !ok || alloc.Block() != in.Block() {
			return bottom
		}
		var buf [8]*ssa.Value
		for i := len(before) - 1; i >= 0 && before[i] != alloc; i-- {
			for _, op := range before[i].Operands(buf[:0]) {
				if *op == alloc {
					return bottom
				}
			}
		}
		return zero(in.Type())
	case token.NOT, token.SUB:
		x := p.value(in.X)
		if x.state != known {
			return x
		}
		if in.Op == token.SUB && (!isInteger(in.Type()) || x.c.Kind() != constant.Int) {
			return bottom
		}
		if in.Op == token.NOT && x.c.Kind() != constant.Bool {
			return bottom
		}
		return representable(constant.UnaryOp(in.Op, x.c, 0), in.Type())
	}
	return bottom
}

// StoredOnce returns w if variable cell is stored to once, with w, by an
// instruction that runs before instruction before in every run of their
// function, and otherwise only loaded, there and in the closures that
// capture it. Every load through cell that runs after before, in the
// function or in code it starts then (a goroutine, a closure it makes),
// gives w; otherwise StoredOnce returns nil.
func StoredOnce(cell *ssa.Alloc, before ssa.Instruction) ssa.Value {
	var w ssa.Value
	for _, ref := range *cell.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if w != nil || ref.Addr != cell || !RunsBefore(ref, before) {
				return nil
			}
			w = ref.Val
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
			fn := ref.Fn.(*ssa.Function)
			for z, b := range ref.Bindings {
				if b == ssa.Value(cell) && !onlyLoaded(fn.FreeVars[z]) {
					return nil
				}
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return w
}

// fieldAt returns the value field f of the object a allocates holds at
// instruction at, or nil: the one store that may write a.f before at, a
// Store to &a.f or a Store of a whole struct into a, runs on every path
// to at (RunsBefore), and the allocation runs at most once per activation
// (not on a cycle of the CFG), so it is that object's. No other write can
// reach a.f before at: every use of a that may run before at only reaches
// its fields (FieldAddr), loads it whole, or is that store, and &a.f is
// only loaded from or stored to. A whole struct stored into a that was
// loaded from another such allocation b ("res := T{...}", go/ssa's
// composite literal copied into a variable) holds b's field f as it was at
// the load.
func fieldAt(a *ssa.Alloc, f int, at ssa.Instruction) ssa.Value {
	if a.Block() == nil || reachesByEdge(a.Block(), a.Block()) {
		return nil
	}
	var store *ssa.Store
	for _, use := range *a.Referrers() {
		switch u := use.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.FieldAddr:
			if u.Field != f {
				continue
			}
			for _, v := range *u.Referrers() {
				switch v := v.(type) {
				case *ssa.Store:
					if v.Addr != u || store != nil {
						return nil
					}
					store = v
				case *ssa.UnOp:
					if v.Op != token.MUL {
						return nil
					}
				case *ssa.DebugRef:
				default:
					return nil
				}
			}
			continue
		case *ssa.UnOp:
			if u.Op == token.MUL {
				continue // a whole load reads, never writes
			}
		case *ssa.Store:
			if u.Addr == a {
				if store != nil {
					return nil
				}
				store = u
				continue
			}
		}
		// Any other use (a escapes, or is written otherwise) must not
		// run before at: not earlier in at's block, nor in a block that
		// leads to at's.
		if u := use; u.Block() == at.Block() && !RunsBefore(at, u) || reachesByEdge(u.Block(), at.Block()) {
			return nil
		}
	}
	if store == nil || !RunsBefore(store, at) {
		return nil
	}
	if store.Addr != a {
		return store.Val
	}
	whole, ok := store.Val.(*ssa.UnOp)
	if !ok || whole.Op != token.MUL {
		return nil
	}
	b, ok := whole.X.(*ssa.Alloc)
	if !ok || b == a {
		return nil
	}
	return fieldAt(b, f, whole)
}

// reachesByEdge reports whether a path of one or more edges leads from
// block b to block t.
func reachesByEdge(b, t *ssa.BasicBlock) bool {
	for _, s := range b.Succs {
		if ReachesAvoiding(s, t, nil) {
			return true
		}
	}
	return false
}

// RunsBefore reports whether instruction x runs before instruction y, of
// the same function, on every path to y. Nothing runs surely before the
// Recover block, which a panic may enter from anywhere.
func RunsBefore(x, y ssa.Instruction) bool {
	if y.Block() == y.Parent().Recover {
		return false
	}
	if x.Block() != y.Block() {
		return x.Block().Dominates(y.Block())
	}
	for _, instr := range y.Block().Instrs {
		switch instr {
		case x:
			return true
		case y:
			return false
		}
	}
	return false
}

// onlyLoaded reports whether a captured variable is only loaded, there
// and in the closures that capture it in turn. Termination: each step goes
// to a function literal nested in the last, and nesting is finite.
func onlyLoaded(fv *ssa.FreeVar) bool {
	for _, ref := range *fv.Referrers() {
		switch ref := ref.(type) {
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return false
			}
		case *ssa.MakeClosure:
			fn := ref.Fn.(*ssa.Function)
			for z, b := range ref.Bindings {
				if b == ssa.Value(fv) && !onlyLoaded(fn.FreeVars[z]) {
					return false
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// captured returns the value free variable fv of fn holds in every run of
// fn: fn is made by closures that capture a variable stored to once,
// before the closure is made, with the same constant; or varying.
func (p *propagation) captured(fv *ssa.FreeVar) lattice {
	parent := p.fn.Parent()
	z := slices.Index(p.fn.FreeVars, fv)
	if parent == nil || z < 0 {
		return bottom
	}
	l := lattice{}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || mc.Fn != p.fn {
				continue
			}
			cell, ok := mc.Bindings[z].(*ssa.Alloc)
			if !ok {
				return bottom
			}
			c, ok := StoredOnce(cell, mc).(*ssa.Const)
			if !ok || c.Value == nil || !isBasic(c.Type()) {
				return bottom
			}
			l = meet(l, lattice{state: known, c: c.Value})
		}
	}
	if l.state == unknown {
		return bottom // no closure made here: called from where we do not see
	}
	return l
}

// representable keeps c only if the type holds it exactly: Go's fixed-size
// integers wrap, constant arithmetic does not.
func representable(c constant.Value, t types.Type) lattice {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return bottom
	}
	if b.Info()&types.IsBoolean != 0 {
		return lattice{state: known, c: c}
	}
	var size int64
	switch b.Kind() {
	case types.Int8, types.Uint8:
		size = 1
	case types.Int16, types.Uint16:
		size = 2
	case types.Int32, types.Uint32:
		size = 4
	default:
		size = 8 // int, uint and uintptr are at most 64 bits wide
	}
	bits := uint(8*size) - 1
	if b.Info()&types.IsUnsigned != 0 {
		bits++
		if constant.Sign(c) < 0 {
			return bottom
		}
	}
	limit := constant.Shift(constant.MakeInt64(1), token.SHL, bits)
	if constant.Compare(c, token.GEQ, limit) || constant.Compare(c, token.LSS, constant.UnaryOp(token.SUB, limit, 0)) {
		return bottom
	}
	return lattice{state: known, c: c}
}

// zero is the zero value of a basic type, or varying for other types.
func zero(t types.Type) lattice {
	b, ok := t.Underlying().(*types.Basic)
	switch {
	case !ok:
		return bottom
	case b.Info()&types.IsBoolean != 0:
		return lattice{state: known, c: constant.MakeBool(false)}
	case b.Info()&types.IsInteger != 0:
		return lattice{state: known, c: constant.MakeInt64(0)}
	case b.Info()&types.IsString != 0:
		return lattice{state: known, c: constant.MakeString("")}
	}
	return bottom
}

func isBasic(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// recordLiveness keeps what p found (dead blocks, branches never taken,
// counting loops) and returns the live blocks.
func (f *Facts) recordLiveness(p *propagation) []*ssa.BasicBlock {
	if f.dead == nil {
		f.dead, f.deadEdge, f.loops = map[*ssa.BasicBlock]bool{}, map[[2]*ssa.BasicBlock]bool{}, map[*ssa.BasicBlock]*CountingLoop{}
	}
	var live []*ssa.BasicBlock
	for _, b := range p.fn.Blocks {
		if !p.live[b.Index] {
			f.dead[b] = true
			continue
		}
		live = append(live, b)
		for _, succ := range b.Succs {
			if !p.edges[[2]int{b.Index, succ.Index}] {
				f.deadEdge[[2]*ssa.BasicBlock{b, succ}] = true
			}
		}
		if l := p.countingLoop(b); l != nil {
			f.loops[b] = l
		}
	}
	return live
}

// A CountingLoop is a loop for i := Start; i < Bound; i += Step (or
// i <= Bound) over an integer counter i, with a constant Step > 0: every
// edge back into its header adds Step to the counter, and the test's false
// branch leaves the loop. Bound is the test's constant, or nil when the
// counter is compared with a value that is not constant. Start is nil
// unless every entry into the loop starts the counter at the same
// constant. Next is nil, or the header's Counter + Step when the test is
// on it and every edge back into the header carries it (go/ssa's for
// i := range s: the body sees Next).
type CountingLoop struct {
	Counter            *ssa.Phi
	Next               *ssa.BinOp
	Start, Step, Bound constant.Value
	Inclusive          bool // the test is i <= Bound
	simpleHeader       bool // the header holds only phis and the test
}

// Increases reports whether the counter never wraps inside the loop: while
// the test holds, counter + Step fits the counter's type. Then every way
// around the loop makes the counter larger. Without a constant bound, this
// holds for i < n and a step of 1: n is a value of i's type, so i + 1 <= n
// fits it.
func (l *CountingLoop) Increases() bool {
	if l.Bound == nil {
		return !l.Inclusive && constant.Compare(l.Step, token.EQL, constant.MakeInt64(1))
	}
	last := l.Bound
	if !l.Inclusive {
		last = constant.BinaryOp(last, token.SUB, constant.MakeInt64(1))
	}
	return representable(constant.BinaryOp(last, token.ADD, l.Step), l.Counter.Type()).state == known
}

// runsOnce reports whether the body runs at most once each time the loop
// is entered: start + step already fails the test (and does not wrap). The
// header, which then runs twice, must hold nothing but the counter's phis
// and the test.
func (l *CountingLoop) runsOnce() bool {
	if l.Start == nil || l.Bound == nil || l.Next != nil || !l.simpleHeader {
		return false
	}
	next := representable(constant.BinaryOp(l.Start, token.ADD, l.Step), l.Counter.Type())
	if next.state != known {
		return false
	}
	if l.Inclusive {
		return constant.Compare(next.c, token.GTR, l.Bound)
	}
	return constant.Compare(next.c, token.GEQ, l.Bound)
}

// countingLoop returns the counting loop h heads, or nil.
func (p *propagation) countingLoop(h *ssa.BasicBlock) *CountingLoop {
	br, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok || cmp.Block() != h {
		return nil
	}
	l := &CountingLoop{simpleHeader: true}
	for _, instr := range h.Instrs[:len(h.Instrs)-1] {
		switch instr.(type) {
		case *ssa.Phi, *ssa.DebugRef:
		default:
			l.simpleHeader = l.simpleHeader && instr == cmp
		}
	}
	counter, bound := cmp.X, p.value(cmp.Y)
	switch cmp.Op {
	case token.GTR, token.GEQ: // C > i is i < C
		counter, bound = cmp.Y, p.value(cmp.X)
	case token.LSS, token.LEQ:
	default:
		return nil
	}
	l.Inclusive = cmp.Op == token.LEQ || cmp.Op == token.GEQ
	if next, ok := counter.(*ssa.BinOp); ok && next.Op == token.ADD && next.Block() == h {
		if slices.Contains(h.Preds, h) {
			return nil // a loop of one block that tests the next value last: the body sees the counter, untested
		}
		l.Next, counter = next, next.X
	}
	phi, ok := counter.(*ssa.Phi)
	if !ok || phi.Block() != h || !isInteger(phi.Type()) {
		return nil
	}
	if bound.state == known {
		if bound.c.Kind() != constant.Int {
			return nil
		}
		l.Bound = bound.c
	}
	l.Counter = phi
	// Edges from blocks h dominates come around the loop and must add the
	// step; the others enter it.
	var back []*ssa.BasicBlock
	starts := true
	for k, pred := range h.Preds {
		e := phi.Edges[k]
		if h.Dominates(pred) {
			add, ok := e.(*ssa.BinOp)
			if !ok || add.Op != token.ADD || add.X != phi || l.Next != nil && add != l.Next {
				return nil
			}
			s := p.value(add.Y)
			if s.state != known || s.c.Kind() != constant.Int || constant.Sign(s.c) <= 0 ||
				l.Step != nil && !constant.Compare(s.c, token.EQL, l.Step) {
				return nil
			}
			l.Step = s.c
			back = append(back, pred)
			continue
		}
		c := p.value(e)
		if c.state != known || c.c.Kind() != constant.Int || l.Start != nil && !constant.Compare(c.c, token.EQL, l.Start) {
			starts = false
			continue
		}
		l.Start = c.c
	}
	if !starts {
		l.Start = nil
	}
	if l.Step == nil {
		return nil
	}
	for _, b := range back {
		if ReachesAvoiding(br.Block().Succs[1], b, h) {
			return nil
		}
	}
	return l
}

// ReachesAvoiding reports whether block to can be reached from block from
// without passing through avoid (which may be nil).
func ReachesAvoiding(from, to, avoid *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{avoid: true}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == to {
			return true
		}
		if !seen[b] {
			seen[b] = true
			stack = append(stack, b.Succs...)
		}
	}
	return false
}

// unevaluatedRanges returns the positions of the range expressions in fn
// that Go does not evaluate: with at most one iteration variable over an
// array, whose length is constant (the Go spec, "For statements with range
// clause"). go/ssa still loads the array there, a read that does not
// happen.
func unevaluatedRanges(fn *ssa.Function) map[token.Pos]bool {
	syntax := fn.Syntax()
	if syntax == nil {
		return nil
	}
	var set map[token.Pos]bool
	ast.Inspect(syntax, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return n == syntax // a closure is a function of its own
		case *ast.RangeStmt:
			if n.Value == nil {
				if set == nil {
					set = map[token.Pos]bool{}
				}
				set[n.X.Pos()] = true
			}
		}
		return true
	})
	return set
}

// isArrayValue reports whether v is an array that nothing uses.
func isArrayValue(v ssa.Value) bool {
	_, ok := v.Type().Underlying().(*types.Array)
	return ok && len(*v.Referrers()) == 0
}
