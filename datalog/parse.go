package datalog

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tString
	tDirective // .type, .decl, ...
	tLParen
	tRParen
	tComma
	tDot
	tColon
	tSubtype // <:
	tIf      // :-
	tBang
	tEq
	tNe
	tLt
	tLe
	tGt
	tGe
	tUnderscore
)

var tokNames = [...]string{
	tEOF: "end of file", tIdent: "identifier", tNumber: "number", tString: "string",
	tDirective: "directive", tLParen: "'('", tRParen: "')'", tComma: "','", tDot: "'.'",
	tColon: "':'", tSubtype: "'<:'", tIf: "':-'", tBang: "'!'", tEq: "'='", tNe: "'!='",
	tLt: "'<'", tLe: "'<='", tGt: "'>'", tGe: "'>='", tUnderscore: "'_'",
}

// souffleDirectives are the words after '.' that Souffle reads as
// directives; the parser supports some and rejects the others by name.
var souffleDirectives = map[string]bool{
	"type": true, "decl": true, "input": true, "output": true, "printsize": true,
	"limitsize": true, "comp": true, "init": true, "functor": true, "pragma": true,
	"plan": true, "override": true, "number_type": true,
}

type token struct {
	kind tokKind
	text string
	pos  Pos
}

func (t token) describe() string {
	switch t.kind {
	case tIdent, tNumber, tDirective:
		return tokNames[t.kind] + " " + t.text
	case tString:
		return "string " + strconv.Quote(t.text)
	}
	return tokNames[t.kind]
}

type lexer struct {
	file      string
	src       string
	off       int
	line, col int
}

func (lx *lexer) pos() Pos { return Pos{lx.file, lx.line, lx.col} }

func (lx *lexer) advance(n int) {
	for _, r := range lx.src[lx.off : lx.off+n] {
		if r == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
	}
	lx.off += n
}

// skip skips white space and comments.
func (lx *lexer) skip() *Error {
	for lx.off < len(lx.src) {
		rest := lx.src[lx.off:]
		switch {
		case rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r':
			lx.advance(1)
		case strings.HasPrefix(rest, "//"):
			n := strings.IndexByte(rest, '\n')
			if n < 0 {
				n = len(rest)
			}
			lx.advance(n)
		case strings.HasPrefix(rest, "/*"):
			start := lx.pos()
			n := strings.Index(rest[2:], "*/")
			if n < 0 {
				return errorf(start, "comment not terminated")
			}
			lx.advance(n + 4)
		default:
			return nil
		}
	}
	return nil
}

func isIdentStart(r rune) bool { return r == '_' || r == '?' || unicode.IsLetter(r) }
func isIdentPart(r rune) bool  { return isIdentStart(r) || unicode.IsDigit(r) }

// firstRune returns the first rune of s, or utf8.RuneError if s is empty.
func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

func (lx *lexer) next() (token, *Error) {
	if err := lx.skip(); err != nil {
		return token{}, err
	}
	pos := lx.pos()
	if lx.off >= len(lx.src) {
		return token{kind: tEOF, pos: pos}, nil
	}
	rest := lx.src[lx.off:]
	tok := func(k tokKind, n int) (token, *Error) {
		t := token{kind: k, text: rest[:n], pos: pos}
		lx.advance(n)
		return t, nil
	}
	r, size := utf8.DecodeRuneInString(rest)
	switch {
	case r == utf8.RuneError && size == 1:
		return token{}, errorf(pos, "invalid UTF-8 encoding")
	case rest[0] == '.':
		n := 1
		for n < len(rest) && rest[n] >= 'a' && rest[n] <= 'z' {
			n++
		}
		// Only Souffle's directive names: "e(1).e(2)." is two facts.
		if souffleDirectives[rest[1:n]] {
			return tok(tDirective, n)
		}
		return tok(tDot, 1)
	case rest[0] == '"':
		return lx.lexString(pos)
	case rest[0] >= '0' && rest[0] <= '9' || rest[0] == '-' && len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9':
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		return tok(tNumber, n)
	case rest[0] == '_' && !isIdentPart(firstRune(rest[1:])): // (a byte is not a rune: "_א")
		return tok(tUnderscore, 1)
	case isIdentStart(r):
		n := 0
		for n < len(rest) {
			r, size := utf8.DecodeRuneInString(rest[n:])
			if !isIdentPart(r) {
				break
			}
			n += size
		}
		return tok(tIdent, n)
	}
	for _, p := range [...]struct {
		s string
		k tokKind
	}{{":-", tIf}, {"<:", tSubtype}, {"!=", tNe}, {"<=", tLe}, {">=", tGe},
		{"(", tLParen}, {")", tRParen}, {",", tComma}, {":", tColon}, {"!", tBang},
		{"=", tEq}, {"<", tLt}, {">", tGt}} {
		if strings.HasPrefix(rest, p.s) {
			return tok(p.k, len(p.s))
		}
	}
	return token{}, errorf(pos, "unexpected character %q", r)
}

func (lx *lexer) lexString(pos Pos) (token, *Error) {
	var b strings.Builder
	i := 1
	rest := lx.src[lx.off:]
	for {
		if i >= len(rest) || rest[i] == '\n' {
			return token{}, errorf(pos, "string not terminated")
		}
		c := rest[i]
		if c == '"' {
			i++
			break
		}
		if c == '\\' && i+1 < len(rest) {
			switch e := rest[i+1]; e {
			case '"', '\\':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				lx.advance(i)
				return token{}, errorf(lx.pos(), "unknown escape sequence \\%c", e)
			}
			i += 2
			continue
		}
		b.WriteByte(c)
		i++
	}
	lx.advance(i)
	return token{kind: tString, text: b.String(), pos: pos}, nil
}

// parser builds the unchecked syntax of a program; check resolves names.
type parser struct {
	lx   lexer
	tok  token
	prog *Program
	// directives naming relations, resolved after all declarations are read
	io []ioDirective
}

type ioDirective struct {
	name   string
	output bool
	pos    Pos
}

type syntaxRule struct {
	head syntaxAtom
	body []syntaxAtom
	cmps []Comparison
	pos  Pos
}

type syntaxAtom struct {
	name string
	args []Term
	neg  bool
	pos  Pos
}

func (p *parser) advance() *Error {
	t, err := p.lx.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

func (p *parser) expect(k tokKind, what string) (token, *Error) {
	t := p.tok
	if t.kind != k {
		return t, errorf(t.pos, "expected %s, found %s", what, t.describe())
	}
	return t, p.advance()
}

// Parse parses and checks a program. filename is used in positions.
func Parse(filename string, src []byte) (*Program, error) {
	p, rules, err := parseSyntax(filename, string(src))
	if err != nil {
		return nil, err
	}
	prog := p.prog
	if err := prog.resolve(rules, p.io); err != nil {
		return nil, err
	}
	if err := prog.stratify(); err != nil {
		return nil, err
	}
	return prog, nil
}

func newProgram() *Program {
	p := &Program{types: map[string]*Type{}, rels: map[string]*Relation{}}
	for _, t := range []*Type{{Name: "number", Kind: NumberKind}, {Name: "symbol", Kind: SymbolKind}} {
		p.types[t.Name] = t
		p.Types = append(p.Types, t)
	}
	return p
}

func parseSyntax(filename, src string) (*parser, []syntaxRule, *Error) {
	p := &parser{lx: lexer{file: filename, src: src, line: 1, col: 1}, prog: newProgram()}
	if err := p.advance(); err != nil {
		return nil, nil, err
	}
	var rules []syntaxRule
	for p.tok.kind != tEOF {
		if p.tok.kind == tDirective {
			if err := p.directive(); err != nil {
				return nil, nil, err
			}
			continue
		}
		r, err := p.rule()
		if err != nil {
			return nil, nil, err
		}
		rules = append(rules, r)
	}
	return p, rules, nil
}

func (p *parser) directive() *Error {
	d := p.tok
	if err := p.advance(); err != nil {
		return err
	}
	switch d.text {
	case ".type":
		return p.typeDecl(d.pos)
	case ".decl":
		return p.relDecl(d.pos)
	case ".input", ".output":
		for {
			name, err := p.expect(tIdent, "relation name")
			if err != nil {
				return err
			}
			if p.tok.kind == tLParen {
				if err := p.ioParams(); err != nil {
					return err
				}
			}
			p.io = append(p.io, ioDirective{name.text, d.text == ".output", name.pos})
			if p.tok.kind != tComma {
				return nil
			}
			if err := p.advance(); err != nil {
				return err
			}
		}
	}
	return errorf(d.pos, "unknown directive %s (supported: .type, .decl, .input, .output)", d.text)
}

// ioParams accepts and checks Souffle's I/O parameters; only the defaults
// (tab-separated files named after the relation) are supported.
func (p *parser) ioParams() *Error {
	if err := p.advance(); err != nil {
		return err
	}
	for p.tok.kind != tRParen {
		key, err := p.expect(tIdent, "parameter name")
		if err != nil {
			return err
		}
		if _, err := p.expect(tEq, "'='"); err != nil {
			return err
		}
		val := p.tok
		if val.kind != tIdent && val.kind != tString {
			return errorf(val.pos, "expected parameter value, found %s", val.describe())
		}
		ok := key.text == "IO" && val.text == "file" || key.text == "delimiter" && val.text == "\t"
		if !ok {
			return errorf(key.pos, "unsupported I/O parameter %s=%q (only IO=file with tab delimiter)", key.text, val.text)
		}
		if err := p.advance(); err != nil {
			return err
		}
		if p.tok.kind == tComma {
			if err := p.advance(); err != nil {
				return err
			}
		} else if p.tok.kind != tRParen {
			return errorf(p.tok.pos, "expected ',' or ')', found %s", p.tok.describe())
		}
	}
	return p.advance()
}

func (p *parser) typeDecl(pos Pos) *Error {
	name, err := p.expect(tIdent, "type name")
	if err != nil {
		return err
	}
	if p.tok.kind != tSubtype && p.tok.kind != tEq {
		return errorf(p.tok.pos, "expected '<:' or '=', found %s", p.tok.describe())
	}
	if err := p.advance(); err != nil {
		return err
	}
	base, err := p.expect(tIdent, "base type")
	if err != nil {
		return err
	}
	bt := p.prog.types[base.text]
	if bt == nil {
		return errorf(base.pos, "unknown type %s", base.text)
	}
	if _, dup := p.prog.types[name.text]; dup {
		return errorf(name.pos, "type %s declared twice", name.text)
	}
	if bt.Name != "number" && bt.Name != "symbol" {
		return errorf(base.pos, "type %s must be a subtype of number or symbol", name.text)
	}
	t := &Type{Name: name.text, Kind: bt.Kind, Pos: pos}
	p.prog.types[t.Name] = t
	p.prog.Types = append(p.prog.Types, t)
	return nil
}

func (p *parser) relDecl(pos Pos) *Error {
	name, err := p.expect(tIdent, "relation name")
	if err != nil {
		return err
	}
	if old := p.prog.rels[name.text]; old != nil {
		return errorf(name.pos, "relation %s declared twice (first at %s)", name.text, old.Pos)
	}
	if _, err := p.expect(tLParen, "'('"); err != nil {
		return err
	}
	rel := &Relation{Name: name.text, Pos: name.pos, index: len(p.prog.Relations)}
	seen := map[string]bool{}
	for p.tok.kind != tRParen {
		if len(rel.Attrs) > 0 {
			if _, err := p.expect(tComma, "',' or ')'"); err != nil {
				return err
			}
		}
		attr, err := p.expect(tIdent, "attribute name")
		if err != nil {
			return err
		}
		if seen[attr.text] {
			return errorf(attr.pos, "attribute %s declared twice in %s", attr.text, rel.Name)
		}
		seen[attr.text] = true
		if _, err := p.expect(tColon, "':'"); err != nil {
			return err
		}
		tn, err := p.expect(tIdent, "type name")
		if err != nil {
			return err
		}
		t := p.prog.types[tn.text]
		if t == nil {
			return errorf(tn.pos, "unknown type %s", tn.text)
		}
		rel.Attrs = append(rel.Attrs, Attr{Name: attr.text, Type: t})
	}
	if err := p.advance(); err != nil {
		return err
	}
	if len(rel.Attrs) == 0 {
		return errorf(name.pos, "relation %s has no attributes", rel.Name)
	}
	// Souffle's representation qualifiers change nothing here.
	for p.tok.kind == tIdent && (p.tok.text == "btree" || p.tok.text == "brie") {
		if err := p.advance(); err != nil {
			return err
		}
	}
	p.prog.rels[rel.Name] = rel
	p.prog.Relations = append(p.prog.Relations, rel)
	return nil
}

func (p *parser) rule() (syntaxRule, *Error) {
	r := syntaxRule{pos: p.tok.pos}
	head, err := p.atom()
	if err != nil {
		return r, err
	}
	r.head = head
	if p.tok.kind == tIf {
		if err := p.advance(); err != nil {
			return r, err
		}
		for {
			if err := p.literal(&r); err != nil {
				return r, err
			}
			if p.tok.kind != tComma {
				break
			}
			if err := p.advance(); err != nil {
				return r, err
			}
		}
	}
	if _, err := p.expect(tDot, "'.' at the end of the rule"); err != nil {
		return r, err
	}
	return r, nil
}

func (p *parser) literal(r *syntaxRule) *Error {
	if p.tok.kind == tBang {
		if err := p.advance(); err != nil {
			return err
		}
		a, err := p.atom()
		if err != nil {
			return err
		}
		a.neg = true
		r.body = append(r.body, a)
		return nil
	}
	if p.tok.kind == tIdent {
		// An identifier followed by '(' is an atom; otherwise a comparison operand.
		save := p.lx
		saveTok := p.tok
		if err := p.advance(); err != nil {
			return err
		}
		isAtom := p.tok.kind == tLParen
		p.lx, p.tok = save, saveTok
		if isAtom {
			a, err := p.atom()
			if err != nil {
				return err
			}
			r.body = append(r.body, a)
			return nil
		}
	}
	left, err := p.term()
	if err != nil {
		return err
	}
	opTok := p.tok
	var op CmpOp
	switch opTok.kind {
	case tEq:
		op = OpEq
	case tNe:
		op = OpNe
	case tLt:
		op = OpLt
	case tLe:
		op = OpLe
	case tGt:
		op = OpGt
	case tGe:
		op = OpGe
	default:
		return errorf(opTok.pos, "expected comparison operator, found %s", opTok.describe())
	}
	if err := p.advance(); err != nil {
		return err
	}
	right, err := p.term()
	if err != nil {
		return err
	}
	r.cmps = append(r.cmps, Comparison{Op: op, Left: left, Right: right, Pos: opTok.pos})
	return nil
}

func (p *parser) atom() (syntaxAtom, *Error) {
	name, err := p.expect(tIdent, "relation name")
	if err != nil {
		return syntaxAtom{}, err
	}
	a := syntaxAtom{name: name.text, pos: name.pos}
	if _, err := p.expect(tLParen, "'('"); err != nil {
		return a, err
	}
	for p.tok.kind != tRParen {
		if len(a.args) > 0 {
			if _, err := p.expect(tComma, "',' or ')'"); err != nil {
				return a, err
			}
		}
		t, err := p.term()
		if err != nil {
			return a, err
		}
		a.args = append(a.args, t)
	}
	return a, p.advance()
}

func (p *parser) term() (Term, *Error) {
	t := p.tok
	var term Term
	switch t.kind {
	case tIdent:
		term = Term{Kind: VarTerm, Name: t.text, Pos: t.pos}
	case tUnderscore:
		term = Term{Kind: WildcardTerm, Pos: t.pos}
	case tString:
		term = Term{Kind: SymbolTerm, Name: t.text, Pos: t.pos}
	case tNumber:
		n, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
			return term, errorf(t.pos, "number %s out of range for a 32-bit number", t.text)
		}
		term = Term{Kind: NumberTerm, Num: int32(n), Pos: t.pos}
	default:
		return term, errorf(t.pos, "expected a variable, '_' or a constant, found %s", t.describe())
	}
	return term, p.advance()
}
