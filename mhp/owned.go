package mhp

import (
	"go/token"
	"go/types"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// A ref is a value of a function, or with deref the value held in the
// variable it points to (a captured variable, loaded through a free
// variable), when that variable holds one value in every run.
type ref struct {
	v     ssa.Value
	deref bool
}

// A frame places an instruction inside one activation of a function: at is
// the instruction of that function during which it runs (itself, or the
// call of the function literal it lies in), root a value of that function;
// chain holds the instruction and the calls of the literals between it and
// at, innermost first, at last. once, if not nil, is a sync.Once.Do call
// on a field of the root (onceField), inside whose f the instruction runs.
type frame struct {
	at        ssa.Instruction
	root      ref
	chain     []ssa.Instruction
	once      ssa.Instruction
	onceField int
}

// lift returns the frame of the outermost activation that instruction x,
// with value v of its function, runs inside, through function literals
// that run inside the activation that makes them: a literal made once and
// used only as the function of one plain or deferred call, or as the f of
// one sync.Once.Do call (Do runs f, if at all, inside that call, in its
// goroutine). A free variable of such a literal is, in every run of it,
// the value its closure bound in the enclosing activation. It stops at a
// value that is not a free variable, and at a literal used otherwise (a go
// statement, a value passed on or stored), which may run in another
// goroutine or after its maker returned. Termination: each step goes to
// the enclosing function, and nesting is finite.
func (o *Order) lift(x ssa.Instruction, v ssa.Value) frame {
	key := liftKey{x, v}
	if fr, ok := o.lifted[key]; ok {
		return fr
	}
	fr := o.liftOnce(x, v)
	o.lifted[key] = fr // callers only read a frame's chain
	return fr
}

type liftKey struct {
	x ssa.Instruction
	v ssa.Value
}

// liftOnce computes lift.
func (o *Order) liftOnce(x ssa.Instruction, v ssa.Value) frame {
	fr := frame{at: x, root: settled(v, x), chain: []ssa.Instruction{x}}
	for {
		fn := fr.at.Parent()
		if fn.Parent() == nil {
			return fr
		}
		made := o.madeOnce(fn)
		if made == nil {
			return fr
		}
		use := onlyUse(made)
		if use == nil || !runsInside(use, made) {
			return fr
		}
		root, ok := bound(fr.root, made, use)
		if !ok {
			return fr
		}
		fr.root, fr.at = root, use
		fr.chain = append(fr.chain, use)
		if do, ok := use.(*ssa.Call); ok && do.Call.Value != made {
			if fa, ok := do.Call.Args[0].(*ssa.FieldAddr); ok && settled(fa.X, do) == root {
				fr.once, fr.onceField = do, fa.Field
			}
		}
	}
}

// bound returns what root, a free variable (or the variable it points to)
// of the literal whose one value made is used by use, is in the function
// of use: the value the closure binds, or the value stored once, before
// use, into the variable it binds (pointsto.StoredOnce).
func bound(root ref, made ssa.Value, use ssa.Instruction) (ref, bool) {
	fv, ok1 := root.v.(*ssa.FreeVar)
	mc, ok2 := made.(*ssa.MakeClosure)
	if !ok1 || !ok2 {
		return ref{}, false
	}
	var b ssa.Value
	for k, x := range mc.Fn.(*ssa.Function).FreeVars {
		if x == fv {
			b = mc.Bindings[k]
		}
	}
	if !root.deref {
		return ref{v: b}, b != nil
	}
	switch b := b.(type) {
	case *ssa.Alloc:
		w := pointsto.StoredOnce(b, use)
		return ref{v: w}, w != nil
	case *ssa.FreeVar:
		return ref{v: b, deref: true}, true
	}
	return ref{}, false
}

// settled returns the ref of v at x: the one value a load of a local
// variable stored once before x gives (pointsto.StoredOnce), the variable
// a load through a free variable reads, or v.
func settled(v ssa.Value, x ssa.Instruction) ref {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		switch cell := load.X.(type) {
		case *ssa.Alloc:
			if w := pointsto.StoredOnce(cell, x); w != nil {
				return ref{v: w}
			}
		case *ssa.FreeVar:
			return ref{v: cell, deref: true}
		}
	}
	return ref{v: v}
}

// runsInside reports whether instruction use, the one use of function
// literal value made, runs the literal inside its own run: a plain or
// deferred call of it, or sync.Once.Do given it as f.
func runsInside(use ssa.Instruction, made ssa.Value) bool {
	switch c := use.(type) {
	case *ssa.Call:
		if c.Call.Value == made {
			return true
		}
		callee := c.Call.StaticCallee()
		return callee != nil && isOnceMethod(callee) && callee.Name() == "Do" &&
			len(c.Call.Args) == 2 && c.Call.Args[1] == made
	case *ssa.Defer:
		return c.Call.Value == made
	}
	return false
}

// An owner is an allocation that a function's root may hold, with the call
// that hands it to the function's activation (nil: the allocating
// activation itself).
type owner struct {
	alloc *ssa.Alloc
	call  ssa.CallInstruction
}

// owners returns where the objects that root, a value of function fn, may
// hold come from, when each such object is root in at most one activation
// of fn: root is a heap allocation of fn (each activation allocates its
// own), or a parameter of fn that every call of fn binds to an allocation
// of the caller, in the allocation's block and after it, and no other call
// binds to the same allocation (each run of that block makes a new object
// and hands it to one activation). Every call must name fn statically: a
// call through a function value or an interface may bind anything.
func (o *Order) owners(fn *ssa.Function, root ref) []owner {
	if root.deref {
		return nil
	}
	switch r := root.v.(type) {
	case *ssa.Alloc:
		if r.Heap {
			return []owner{{r, nil}}
		}
	case *ssa.Parameter:
		m, ok := o.f.FuncID(fn)
		k := paramIndex(r)
		if !ok || k < 0 {
			return nil
		}
		var own []owner
		for _, i := range o.callSitesOf(m) {
			call := o.f.Call(i)
			c := call.Common()
			if c.IsInvoke() || c.StaticCallee() != fn || k >= len(c.Args) {
				return nil
			}
			p, ok := c.Args[k].(*ssa.Alloc)
			if !ok || !p.Heap || p.Block() != call.Block() || !pointsto.RunsBefore(p, call) {
				return nil
			}
			for _, w := range own {
				if w.alloc == p {
					return nil // two activations get the object
				}
			}
			own = append(own, owner{p, call})
		}
		return own
	}
	return nil
}

// oneActivation reports whether accesses a and b, if they touch one
// location, run in one goroutine instance, so one after the other: both
// reach the location through roots that (lifted to the activations they
// run in, see lift) are one value of one function, owned (see owners),
// so the one object is that value in one activation only, and both run
// inside it; or a's root is a parameter that every call handing it the
// allocation that is b's root makes as a plain or deferred call from the
// allocating activation, inside which b runs.
func (o *Order) oneActivation(a, b ssa.Instruction) bool {
	fa, fb, ok := o.accessFrames(a, b)
	if !ok {
		return false
	}
	if fa.root == fb.root && fa.at.Parent() == fb.at.Parent() {
		return len(o.owners(fa.at.Parent(), fa.root)) > 0
	}
	return o.handedInline(fa, fb) || o.handedInline(fb, fa)
}

// handedInline reports whether the object that fa's root holds, when it is
// fb's root (an allocation), comes to fa's activation only by plain or
// deferred calls from the activation that allocated it.
func (o *Order) handedInline(fa, fb frame) bool {
	p, ok := fb.root.v.(*ssa.Alloc)
	if !ok || fb.root.deref {
		return false
	}
	n := 0
	for _, w := range o.owners(fa.at.Parent(), fa.root) {
		if w.alloc != p {
			continue
		}
		if _, ok := w.call.(*ssa.Go); ok || w.call == nil {
			return false
		}
		n++
	}
	return n > 0
}

// accessFrames returns the frames of accesses a and b with their
// locations' roots, when both reach them through field addresses from
// roots of one type.
func (o *Order) accessFrames(a, b ssa.Instruction) (frame, frame, bool) {
	p, ok1 := accessRoot(a)
	q, ok2 := accessRoot(b)
	if !ok1 || !ok2 || !types.Identical(p.Type(), q.Type()) || inRecover(a) || inRecover(b) {
		return frame{}, frame{}, false
	}
	fa, fb := o.lift(a, p), o.lift(b, q)
	return fa, fb, !inRecover(fa.at) && !inRecover(fb.at)
}

// inRecover reports whether x lies in its function's Recover block, which
// a panic may enter from anywhere.
func inRecover(x ssa.Instruction) bool { return x.Block() == x.Parent().Recover }
