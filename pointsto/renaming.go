package pointsto

import "maps"

// Renames reports whether the analysis under next would give r again up
// to a renaming of contexts: a one-to-one map of r's contexts onto next's
// that keeps each context's first element (the site of an object, the
// call site of a call context) and its root base, under which next's
// relations are r's. Then every later stage, which reads contexts only
// through the relations, their sites and their root bases, answers for
// next as for r. A raise does that where it lengthens contexts without
// splitting any: every context of r that the raised site's objects or
// calls are made in leads to one longer context under next.
//
// It replays the enumerator (Analyzer.Run's contexts) twice side by side,
// under r's Sigma and under next, fed the same reached functions: first
// the entries, then r's reach tuples in the order kobj.dl derived them,
// each in its context under each Sigma. Every fact the two enumerators
// make must be the same but for its contexts, and the pairs of contexts
// must make a one-to-one map that keeps heads and root bases. Why that
// proves the renaming: kobj.dl joins contexts by equality only, so if its
// context facts under next are the map's image of r's, so are the reach
// tuples it derives from them, and the enumerator, fed the image of r's
// reached pairs, makes the image of r's facts again (checked here for
// each pair r reached, and the image of a reached pair is one the run
// under next reaches); by induction over Analyzer.Run's alternation of the
// two, every relation of the run under next is the image of r's. The
// order in which the run meets the pairs only numbers the contexts
// differently. Any mismatch (a context split, two merged, a reached
// context that has no image yet) answers false, which only makes the
// caller run next.
func (a *Analyzer) Renames(r *Result, next *Sigma) bool {
	if !maps.Equal(r.Sigma.Roots, next.Roots) {
		return false // root bases kept elsewhere: not a renaming the check below knows
	}
	old := newEnumerator(a, r.Sigma)
	made := newEnumerator(a, next)
	rn := &renaming{from: old.cs, to: made.cs}
	rn.pair(Epsilon, Epsilon)
	if !rn.facts(old.take(), made.take()) {
		return false
	}
	// replayed maps a context of r to the same context in old's table:
	// old makes r's contexts again, under r's Sigma, but numbers them in
	// the order it meets them.
	replayed := make([]Ctx, r.Contexts.Len()) // by r's context: old's, plus one (0: not yet)
	var replay func(c Ctx) Ctx
	replay = func(c Ctx) Ctx {
		if c == Epsilon {
			return Epsilon
		}
		if c2 := replayed[c]; c2 != 0 {
			return c2 - 1
		}
		var c2 Ctx
		if ri, ok := r.Contexts.Root(c); ok && r.Contexts.length[c] == 0 {
			c2 = old.cs.rootContext(ri)
		} else {
			c2 = old.cs.intern(r.Contexts.head[c], replay(r.Contexts.tail[c]))
		}
		replayed[c] = c2 + 1
		return c2
	}
	for t := range r.Tuples("reach") {
		c, m := replay(t[0]), t[1]
		c2, ok := rn.imageOf(c)
		if !ok {
			return false
		}
		old.reached(m, c)
		made.reached(m, c2)
		if !rn.facts(old.take(), made.take()) {
			return false
		}
	}
	return true
}

// renaming pairs the contexts of two enumerators' tables one to one.
type renaming struct {
	from, to *Contexts
	// image by from's context and preimage by to's, plus one (0: none).
	image, preimage []Ctx
}

// imageOf returns the context c is paired with, if any.
func (rn *renaming) imageOf(c Ctx) (Ctx, bool) {
	if int(c) >= len(rn.image) || rn.image[c] == 0 {
		return 0, false
	}
	return rn.image[c] - 1, true
}

// pair records that c (from's) becomes c2 (to's), and reports whether that
// keeps the map one to one and keeps c's head and root base.
func (rn *renaming) pair(c, c2 Ctx) bool {
	if x, ok := rn.imageOf(c); ok {
		return x == c2
	}
	if int(c2) < len(rn.preimage) && rn.preimage[c2] != 0 {
		return false // two contexts merged
	}
	if rn.from.head[c] != rn.to.head[c2] {
		return false
	}
	r1, ok1 := rn.from.Root(c)
	r2, ok2 := rn.to.Root(c2)
	if ok1 != ok2 || r1 != r2 {
		return false
	}
	set(&rn.image, c, c2+1)
	set(&rn.preimage, c2, c+1)
	return true
}

// facts reports whether b is the image of a: the same facts, column by
// column, with each context of a paired with b's.
func (rn *renaming) facts(a, b ctxFacts) bool {
	for _, rel := range []struct {
		a, b []uint32
		ctx  []bool // by column: whether it holds a context
	}{
		{a.entryCtx, b.entryCtx, []bool{true, false}},
		{a.newObj, b.newObj, []bool{true, false, true}},
		{a.newObjIn, b.newObjIn, []bool{true, false, false, true}},
		{a.globalObj, b.globalObj, []bool{false, true}},
		{a.objSite, b.objSite, []bool{true, false}},
		{a.subObj, b.subObj, []bool{true, false, true}},
		{a.callCtx, b.callCtx, []bool{true, false, true}},
		{a.selfCtx, b.selfCtx, []bool{false}},
		{a.startCtx, b.startCtx, []bool{false, true, true}},
	} {
		if len(rel.a) != len(rel.b) {
			return false
		}
		for j, x := range rel.a {
			if rel.ctx[j%len(rel.ctx)] {
				if !rn.pair(x, rel.b[j]) {
					return false
				}
			} else if x != rel.b[j] {
				return false
			}
		}
	}
	return true
}

// set sets (*s)[i] to v, growing *s as needed.
func set(s *[]Ctx, i, v Ctx) {
	if n := int(i) + 1 - len(*s); n > 0 {
		*s = append(*s, make([]Ctx, n)...)
	}
	(*s)[i] = v
}
