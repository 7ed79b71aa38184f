package datalog

import (
	"fmt"
	"strings"
)

// Pos is a position in a Datalog source file.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Error is an error at a position in a program or a fact file.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

func errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// BaseKind says whether a type's values are numbers or interned symbols.
type BaseKind uint8

const (
	NumberKind BaseKind = iota
	SymbolKind
)

// Type is a declared type (`.type T <: number`) or one of the builtins
// `number` and `symbol`. Symbols are interned per type.
type Type struct {
	Name string
	Kind BaseKind
	Pos  Pos
}

// Attr is one column of a relation.
type Attr struct {
	Name string
	Type *Type
}

// Relation declares a relation (`.decl`).
type Relation struct {
	Name    string
	Attrs   []Attr
	Input   bool // `.input`: read from <Name>.facts
	Output  bool // `.output`: written to <Name>.csv
	Pos     Pos
	index   int // position in Program.Relations
	stratum int // position in Program.Strata of the stratum defining it
}

// Arity is the number of columns.
func (r *Relation) Arity() int { return len(r.Attrs) }

// TermKind distinguishes the terms of an atom or comparison.
type TermKind uint8

const (
	VarTerm      TermKind = iota // a named variable
	WildcardTerm                 // `_`
	NumberTerm                   // a numeric constant
	SymbolTerm                   // a string constant
)

// Term is an argument of an atom or an operand of a comparison.
type Term struct {
	Kind TermKind
	Name string // variable name, or the symbol of a SymbolTerm
	Num  int32  // value of a NumberTerm
	Pos  Pos
}

func (t Term) String() string {
	switch t.Kind {
	case VarTerm:
		return t.Name
	case WildcardTerm:
		return "_"
	case NumberTerm:
		return fmt.Sprint(t.Num)
	default:
		return fmt.Sprintf("%q", t.Name)
	}
}

// Atom is `rel(t1, ..., tn)`, negated when Negated is set.
type Atom struct {
	Rel     *Relation
	Args    []Term
	Negated bool
	Pos     Pos
}

// CmpOp is a comparison operator.
type CmpOp uint8

const (
	OpEq CmpOp = iota
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
)

var cmpOpNames = [...]string{"=", "!=", "<", "<=", ">", ">="}

func (op CmpOp) String() string { return cmpOpNames[op] }

// Comparison is `left op right` in a rule body.
type Comparison struct {
	Op          CmpOp
	Left, Right Term
	Pos         Pos
}

// Rule is `head :- body.`; a fact is a rule with an empty body.
type Rule struct {
	Head        Atom
	Body        []Atom // positive and negated atoms, in source order
	Comparisons []Comparison
	Pos         Pos
	index       int
}

func (r *Rule) String() string {
	var b strings.Builder
	writeAtom(&b, r.Head)
	for i, a := range r.Body {
		if i == 0 {
			b.WriteString(" :- ")
		} else {
			b.WriteString(", ")
		}
		writeAtom(&b, a)
	}
	for i, c := range r.Comparisons {
		if i == 0 && len(r.Body) == 0 {
			b.WriteString(" :- ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(c.Left.String() + " " + c.Op.String() + " " + c.Right.String())
	}
	b.WriteString(".")
	return b.String()
}

func writeAtom(b *strings.Builder, a Atom) {
	if a.Negated {
		b.WriteString("!")
	}
	b.WriteString(a.Rel.Name + "(")
	for i, t := range a.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.String())
	}
	b.WriteString(")")
}

// Program is a parsed, checked and stratified Datalog program.
type Program struct {
	Types     []*Type
	Relations []*Relation
	Rules     []*Rule
	// Strata in evaluation order; each lists the relations it defines.
	Strata []*Stratum

	types map[string]*Type
	rels  map[string]*Relation
}

// Stratum is a strongly connected component of the predicate dependency
// graph: relations that depend on each other, and the rules defining them.
type Stratum struct {
	Relations []*Relation
	Rules     []*Rule
	Recursive bool // some rule's body mentions a relation of this stratum
}

// Relation returns the relation named name, or nil.
func (p *Program) Relation(name string) *Relation { return p.rels[name] }

// Type returns the type named name (including `number` and `symbol`), or nil.
func (p *Program) Type(name string) *Type { return p.types[name] }
