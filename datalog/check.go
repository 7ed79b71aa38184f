package datalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chordgo/chordgo/internal/scc"
)

// resolve turns syntax into checked rules: names, arities, types, and
// variable safety (every variable in a head, negation or comparison is bound
// by a positive body atom).
func (p *Program) resolve(rules []syntaxRule, io []ioDirective) *Error {
	for _, d := range io {
		rel := p.rels[d.name]
		if rel == nil {
			return errorf(d.pos, "unknown relation %s", d.name)
		}
		if d.output {
			rel.Output = true
		} else {
			rel.Input = true
		}
	}
	for _, sr := range rules {
		r := &Rule{Pos: sr.pos, index: len(p.Rules)}
		head, err := p.resolveAtom(sr.head)
		if err != nil {
			return err
		}
		r.Head = head
		for _, sa := range sr.body {
			a, err := p.resolveAtom(sa)
			if err != nil {
				return err
			}
			r.Body = append(r.Body, a)
		}
		r.Comparisons = sr.cmps
		if err := checkRule(r); err != nil {
			return err
		}
		p.Rules = append(p.Rules, r)
	}
	return nil
}

func (p *Program) resolveAtom(sa syntaxAtom) (Atom, *Error) {
	rel := p.rels[sa.name]
	if rel == nil {
		return Atom{}, errorf(sa.pos, "unknown relation %s", sa.name)
	}
	if len(sa.args) != rel.Arity() {
		return Atom{}, errorf(sa.pos, "%s used with %d %s, but declared with %d at %s",
			sa.name, len(sa.args), plural(len(sa.args), "argument"), rel.Arity(), rel.Pos)
	}
	return Atom{Rel: rel, Args: sa.args, Negated: sa.neg, Pos: sa.pos}, nil
}

type varInfo struct {
	typ   *Type
	pos   Pos // where the type was first seen
	bound bool
}

func checkRule(r *Rule) *Error {
	vars := map[string]*varInfo{}
	// Types of variables and constants, from every atom.
	typeTerm := func(t Term, typ *Type) *Error {
		switch t.Kind {
		case VarTerm:
			v := vars[t.Name]
			if v == nil {
				vars[t.Name] = &varInfo{typ: typ, pos: t.Pos}
			} else if v.typ != typ {
				return errorf(t.Pos, "type mismatch: variable %s has type %s here and type %s at %s", t.Name, typ.Name, v.typ.Name, v.pos)
			}
		case NumberTerm:
			if typ.Kind != NumberKind {
				return errorf(t.Pos, "type mismatch: number %d where %s (a symbol type) is expected", t.Num, typ.Name)
			}
		case SymbolTerm:
			if typ.Kind != SymbolKind {
				return errorf(t.Pos, "type mismatch: string %q where %s (a number type) is expected", t.Name, typ.Name)
			}
		}
		return nil
	}
	atoms := append([]Atom{r.Head}, r.Body...)
	for _, a := range atoms {
		for i, t := range a.Args {
			if err := typeTerm(t, a.Rel.Attrs[i].Type); err != nil {
				return err
			}
		}
	}
	for _, a := range r.Body {
		if a.Negated {
			continue
		}
		for _, t := range a.Args {
			if t.Kind == VarTerm {
				vars[t.Name].bound = true
			}
		}
	}
	for _, t := range r.Head.Args {
		switch t.Kind {
		case WildcardTerm:
			return errorf(t.Pos, "'_' in the head of a rule")
		case VarTerm:
			if !vars[t.Name].bound {
				return errorf(t.Pos, "variable %s in the head is not bound by a positive body atom", t.Name)
			}
		}
	}
	for _, a := range r.Body {
		if !a.Negated {
			continue
		}
		for _, t := range a.Args {
			if t.Kind == VarTerm && !vars[t.Name].bound {
				return errorf(t.Pos, "variable %s in a negation is not bound by a positive body atom", t.Name)
			}
		}
	}
	for _, c := range r.Comparisons {
		var types [2]*Type // nil for a constant
		var kinds [2]BaseKind
		for i, t := range []Term{c.Left, c.Right} {
			switch t.Kind {
			case WildcardTerm:
				return errorf(t.Pos, "'_' in a comparison")
			case VarTerm:
				v := vars[t.Name]
				if v == nil || !v.bound {
					return errorf(t.Pos, "variable %s in a comparison is not bound by a positive body atom", t.Name)
				}
				types[i], kinds[i] = v.typ, v.typ.Kind
			case NumberTerm:
				kinds[i] = NumberKind
			case SymbolTerm:
				kinds[i] = SymbolKind
			}
		}
		if types[0] != nil && types[1] != nil && types[0] != types[1] || kinds[0] != kinds[1] {
			return errorf(c.Pos, "type mismatch: comparing %s with %s", describeOperand(c.Left, types[0]), describeOperand(c.Right, types[1]))
		}
		if kinds[0] == SymbolKind && c.Op != OpEq && c.Op != OpNe {
			return errorf(c.Pos, "symbols can only be compared with = and !=")
		}
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func describeOperand(t Term, typ *Type) string {
	switch {
	case typ != nil:
		return t.Name + " of type " + typ.Name
	case t.Kind == NumberTerm:
		return "number " + t.String()
	}
	return "string " + t.String()
}

// stratify orders the relations by the strongly connected components of the
// predicate dependency graph and rejects negation inside a component. Every
// step is linear in the relations and body atoms: programs with tens of
// thousands of strata are generated, not written.
func (p *Program) stratify() *Error {
	readers := make([][]int, len(p.Relations)) // edges body -> head, by relation index
	for _, r := range p.Rules {
		for _, a := range r.Body {
			readers[a.Rel.index] = append(readers[a.Rel.index], r.Head.Rel.index)
		}
	}
	comp, ncomp := scc.Components(readers)
	for _, r := range p.Rules {
		for _, a := range r.Body {
			if a.Negated && comp[a.Rel.index] == comp[r.Head.Rel.index] {
				return p.unstratifiable(readers, r, a)
			}
		}
	}
	strata := make([]*Stratum, ncomp)
	for i := range strata {
		strata[i] = &Stratum{}
	}
	for _, rel := range p.Relations { // in declaration order
		s := strata[comp[rel.index]]
		s.Relations = append(s.Relations, rel)
	}
	indegree := make([]int, ncomp)
	succ := make([][]int, ncomp)
	for from, heads := range readers {
		for _, to := range heads {
			if cf, ct := comp[from], comp[to]; cf != ct {
				succ[cf] = append(succ[cf], ct)
				indegree[ct]++
			}
		}
	}
	// Kahn's algorithm with a FIFO queue; the components freed by one are
	// queued in declaration order. Components are numbered in declaration
	// order of their first relation, so that order is numeric order.
	var queue []int
	for c := range ncomp {
		if indegree[c] == 0 {
			queue = append(queue, c)
		}
	}
	for head := 0; head < len(queue); head++ {
		c := queue[head]
		for _, rel := range strata[c].Relations {
			rel.stratum = len(p.Strata)
		}
		p.Strata = append(p.Strata, strata[c])
		freed := len(queue)
		for _, d := range succ[c] {
			if indegree[d]--; indegree[d] == 0 {
				queue = append(queue, d)
			}
		}
		slices.Sort(queue[freed:])
	}
	for _, r := range p.Rules {
		s := strata[comp[r.Head.Rel.index]]
		s.Rules = append(s.Rules, r)
		for _, a := range r.Body {
			if comp[a.Rel.index] == comp[r.Head.Rel.index] {
				s.Recursive = true
			}
		}
	}
	return nil
}

// unstratifiable reports a negated atom whose relation depends on the rule's
// head, naming the whole cycle: a shortest one, found breadth first with
// readers in rule order, so the message is the same every run.
func (p *Program) unstratifiable(readers [][]int, r *Rule, neg Atom) *Error {
	head, body := r.Head.Rel.index, neg.Rel.index
	prev := make([]int, len(readers)) // on a shortest path from head: the relation before, + 1
	prev[head] = head + 1
	for queue := []int{head}; len(queue) > 0 && prev[body] == 0; queue = queue[1:] {
		for _, w := range readers[queue[0]] {
			if prev[w] == 0 {
				prev[w] = queue[0] + 1
				queue = append(queue, w)
			}
		}
	}
	var cycle strings.Builder
	fmt.Fprintf(&cycle, "%s depends on !%s", r.Head.Rel.Name, neg.Rel.Name)
	for v := body; v != head; v = prev[v] - 1 {
		fmt.Fprintf(&cycle, ", %s depends on %s", p.Relations[v].Name, p.Relations[prev[v]-1].Name)
	}
	return errorf(neg.Pos, "unstratifiable negation: cycle through negation (%s)", cycle.String())
}
