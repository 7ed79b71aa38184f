package datalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dominikbraun/graph"
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
// predicate dependency graph and rejects negation inside a component.
func (p *Program) stratify() *Error {
	g := graph.New(graph.StringHash, graph.Directed())
	for _, rel := range p.Relations {
		_ = g.AddVertex(rel.Name) // names are unique: cannot fail
	}
	for _, r := range p.Rules {
		for _, a := range r.Body {
			err := g.AddEdge(a.Rel.Name, r.Head.Rel.Name)
			if err != nil && !errors.Is(err, graph.ErrEdgeAlreadyExists) {
				return errorf(a.Pos, "internal error: %v", err)
			}
		}
	}
	sccs, err := graph.StronglyConnectedComponents(g)
	if err != nil {
		return errorf(Pos{}, "internal error: %v", err)
	}
	comp := make(map[string]int, len(p.Relations))
	for i, scc := range sccs {
		for _, name := range scc {
			comp[name] = i
		}
	}
	for _, r := range p.Rules {
		for _, a := range r.Body {
			if a.Negated && comp[a.Rel.Name] == comp[r.Head.Rel.Name] {
				return unstratifiable(g, r, a)
			}
		}
	}

	cg := graph.New(graph.IntHash, graph.Directed())
	for i := range sccs {
		_ = cg.AddVertex(i)
	}
	for _, r := range p.Rules {
		for _, a := range r.Body {
			from, to := comp[a.Rel.Name], comp[r.Head.Rel.Name]
			if from != to {
				_ = cg.AddEdge(from, to) // duplicates are harmless
			}
		}
	}
	// Ties are broken by declaration order, so strata are deterministic.
	first := make([]int, len(sccs))
	for i, scc := range sccs {
		first[i] = len(p.Relations)
		for _, name := range scc {
			first[i] = min(first[i], p.rels[name].index)
		}
	}
	order, err := graph.StableTopologicalSort(cg, func(a, b int) bool { return first[a] < first[b] })
	if err != nil {
		return errorf(Pos{}, "internal error: %v", err)
	}
	strata := make([]*Stratum, len(sccs))
	for _, c := range order {
		s := &Stratum{}
		for _, name := range sccs[c] {
			s.Relations = append(s.Relations, p.rels[name])
		}
		slices.SortFunc(s.Relations, func(a, b *Relation) int { return a.index - b.index })
		strata[c] = s
		p.Strata = append(p.Strata, s)
	}
	for _, r := range p.Rules {
		s := strata[comp[r.Head.Rel.Name]]
		s.Rules = append(s.Rules, r)
		for _, a := range r.Body {
			if comp[a.Rel.Name] == comp[r.Head.Rel.Name] {
				s.Recursive = true
			}
		}
	}
	return nil
}

// unstratifiable reports a negated atom whose relation depends on the rule's
// head, naming the whole cycle.
func unstratifiable(g graph.Graph[string, string], r *Rule, neg Atom) *Error {
	head, body := r.Head.Rel.Name, neg.Rel.Name
	path, err := graph.ShortestPath(g, head, body)
	if err != nil {
		path = []string{head, body} // a self-loop: head == body
	}
	if head == body {
		path = []string{head}
	}
	var cycle strings.Builder
	fmt.Fprintf(&cycle, "%s depends on !%s", head, body)
	for i := len(path) - 1; i > 0; i-- {
		fmt.Fprintf(&cycle, ", %s depends on %s", path[i], path[i-1])
	}
	return errorf(neg.Pos, "unstratifiable negation: cycle through negation (%s)", cycle.String())
}
