package datalog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// evalProgram parses src, reads facts (relation -> tab-separated lines)
// and runs it.
func evalProgram(t *testing.T, src string, facts map[string]string) (*Database, *Stats) {
	t.Helper()
	prog := mustParse(t, src)
	db := NewDatabase(prog)
	for rel, data := range facts {
		if err := db.ReadFacts(rel+".facts", []byte(data), rel); err != nil {
			t.Fatalf("ReadFacts(%s): %v", rel, err)
		}
	}
	stats, err := db.Run()
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return db, stats
}

// rows returns the tuples of rel as sorted tab-separated lines.
func rows(db *Database, rel string) []string {
	r := db.Program().Relation(rel)
	var out []string
	for tup := range db.Tuples(rel) {
		var parts []string
		for i, v := range tup {
			parts = append(parts, db.Text(r.Attrs[i].Type, v))
		}
		out = append(out, strings.Join(parts, "\t"))
	}
	slices.Sort(out)
	return out
}

// lines splits "a b; c d" into sorted tab-separated lines "a\tb", "c\td".
func lines(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(s, ";") {
		out = append(out, strings.Join(strings.Fields(l), "\t"))
	}
	slices.Sort(out)
	return out
}

func TestEval(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		facts map[string]string
		want  map[string]string // relation -> "a b; c d"
	}{
		{
			name: "constants in body",
			src: `.decl e(x:number, y:number)
.decl r(x:number)
.decl q(x:number)
e(1, 2). e(2, 2). e(3, 1). e(2, 3).
r(x) :- e(x, 2).
q(y) :- e(2, y).`,
			want: map[string]string{"r": "1; 2", "q": "2; 3"},
		},
		{
			name: "constants in heads",
			src: `.type S <: symbol
.decl e(x:number, y:number)
.decl r(x:number, y:number)
.decl t(x:S, y:number)
.decl c(x:number)
e(1, 2). e(3, 4).
r(x, 7) :- e(x, _).
r(-7, y) :- e(_, y).
t("k", x) :- e(x, _).
c(5) :- e(_, _).`,
			want: map[string]string{"r": "1 7; 3 7; -7 2; -7 4", "t": "k 1; k 3", "c": "5"},
		},
		{
			name: "repeated variables",
			src: `.decl e(x:number, y:number)
.decl t(x:number, y:number, z:number)
.decl loop(x:number)
.decl d(x:number, y:number)
.decl tt(x:number)
e(1, 1). e(1, 2). e(2, 2). e(3, 4).
t(1, 2, 1). t(1, 1, 1). t(2, 1, 2). t(3, 3, 4).
loop(x) :- e(x, x).
d(x, x) :- e(x, _).
tt(x) :- t(x, _, x), t(_, x, x).`,
			want: map[string]string{"loop": "1; 2", "d": "1 1; 2 2; 3 3", "tt": "1"},
		},
		{
			name: "wildcards",
			src: `.decl e(x:number, y:number)
.decl src(x:number)
.decl dst(x:number)
.decl any(x:number)
e(1, 2). e(1, 3). e(4, 3).
src(x) :- e(x, _).
dst(y) :- e(_, y).
any(0) :- e(_, _).`,
			want: map[string]string{"src": "1; 4", "dst": "2; 3", "any": "0"},
		},
		{
			name: "negation with wildcards",
			src: `.decl e(x:number, y:number)
.decl sink(x:number)
.decl notarget(x:number)
e(1, 2). e(2, 3). e(4, 3). e(3, 5).
sink(y) :- e(_, y), !e(y, _).
notarget(x) :- e(x, _), !e(_, x).`,
			want: map[string]string{"sink": "5", "notarget": "1; 4"},
		},
		{
			name: "negation of a full wildcard",
			src: `.decl e(x:number, y:number)
.decl none(x:number, y:number)
.decl n(x:number)
.decl yes(x:number)
.decl no(x:number)
n(1). n(2).
e(1, 2).
yes(x) :- n(x), !none(_, _).
no(x) :- n(x), !e(_, _).
yes(9) :- !none(_, _).
no(9) :- !e(_, _).`,
			want: map[string]string{"yes": "1; 2; 9", "no": ""},
		},
		{
			name: "negation with constants",
			src: `.type S <: symbol
.decl e(x:number, y:number)
.decl s(x:S, y:S)
.decl r(x:number)
.decl q(x:S)
e(1, 2). e(2, 3). e(3, 3).
s("a", "b"). s("b", "b").
r(x) :- e(x, _), !e(x, 3).
q(x) :- s(x, _), !s("a", x).`,
			want: map[string]string{"r": "1", "q": "a"},
		},
		{
			name: "comparisons on numbers",
			src: `.decl n(x:number)
.decl lt(x:number, y:number)
.decl le(x:number, y:number)
.decl neg(x:number)
.decl gt(x:number)
.decl ge(x:number)
.decl eq(x:number)
.decl ne(x:number)
.decl c(x:number)
n(-5). n(-1). n(0). n(3).
lt(x, y) :- n(x), n(y), x < y, y < 0.
le(x, y) :- n(x), n(y), x <= y, x >= 0.
neg(x) :- n(x), x < 0.
gt(x) :- n(x), x > -2.
ge(x) :- n(x), -1 >= x.
eq(x) :- n(x), x = -1.
ne(x) :- n(x), x != -1, 0 <= x.
c(1) :- n(_), -1 < 1.
c(2) :- n(_), 1 < -1.
c(3) :- 2147483647 > -2147483648.`,
			want: map[string]string{
				"lt": "-5 -1", "le": "0 0; 0 3; 3 3", "neg": "-5; -1", "gt": "-1; 0; 3",
				"ge": "-5; -1", "eq": "-1", "ne": "0; 3", "c": "1; 3",
			},
		},
		{
			name: "negative numbers in binary relations",
			src: `.decl e(x:number, y:number)
.decl p(x:number, y:number)
e(-1, -2). e(-2, -2147483648). e(2147483647, -1).
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).`,
			want: map[string]string{
				"p": "-1 -2; -2 -2147483648; 2147483647 -1; -1 -2147483648; 2147483647 -2; 2147483647 -2147483648",
			},
		},
		{
			name: "symbol equality",
			src: `.type S <: symbol
.decl s(x:S)
.decl same(x:S, y:S)
.decl diff(x:S, y:S)
.decl isA(x:S)
.decl notA(x:S)
.decl notZ(x:S)
.decl k(x:number)
s("a"). s("b"). s("c").
same(x, y) :- s(x), s(y), x = y.
diff(x, y) :- s(x), s(y), x != y, x = "a".
isA(x) :- s(x), x = "a".
notA(x) :- s(x), "a" != x.
notZ(x) :- s(x), x != "z".
k(1) :- s(_), "a" = "a".
k(2) :- s(_), "a" != "a".
k(3) :- s(_), "a" != "b".
k(4) :- "a" = "b".`,
			want: map[string]string{
				"same": "a a; b b; c c", "diff": "a b; a c", "isA": "a", "notA": "b; c",
				"notZ": "a; b; c", "k": "1; 3",
			},
		},
		{
			name: "symbols interned per type",
			src: `.type S <: symbol
.type U <: symbol
.decl s(x:S)
.decl u(x:U)
.decl both(x:S, y:U)
.decl sym(x:symbol)
s("a"). s("b"). u("b"). u("c"). sym("c").
both(x, y) :- s(x), u(y).`,
			want: map[string]string{"both": "a b; a c; b b; b c", "sym": "c"},
		},
		{
			name: "facts in the program",
			src: `.decl r(x:number, y:symbol)
r(1, "one"). r(2, "two"). r(1, "one").
r(-3, "minus_three").`,
			want: map[string]string{"r": "1 one; 2 two; -3 minus_three"},
		},
		{
			name: "input relation with rules",
			src: `.decl e(x:number, y:number)
.input e
e(y, x) :- e(x, y).
e(10, 11).`,
			facts: map[string]string{"e": "1\t2\n2\t3\n"},
			want:  map[string]string{"e": "1 2; 2 1; 2 3; 3 2; 10 11; 11 10"},
		},
		{
			name: "mutual recursion",
			src: `.decl e(x:number, y:number)
.decl even(x:number)
.decl odd(x:number)
e(0, 1). e(1, 2). e(2, 3). e(3, 4).
even(0).
odd(y) :- even(x), e(x, y).
even(y) :- odd(x), e(x, y).`,
			want: map[string]string{"even": "0; 2; 4", "odd": "1; 3"},
		},
		{
			name: "nonlinear recursion",
			src: `.decl e(x:number, y:number)
.decl p(x:number, y:number)
e(1, 2). e(2, 3). e(3, 4). e(4, 5).
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), p(y, z).`,
			want: map[string]string{"p": "1 2; 1 3; 1 4; 1 5; 2 3; 2 4; 2 5; 3 4; 3 5; 4 5"},
		},
		{
			name: "multiple strata with negation",
			src: `.decl e(x:number, y:number)
.decl node(x:number)
.decl reach(x:number)
.decl unreach(x:number)
.decl lonely(x:number)
e(1, 2). e(2, 3). e(4, 5). e(5, 4). e(6, 6).
node(x) :- e(x, _).
node(y) :- e(_, y).
reach(1).
reach(y) :- reach(x), e(x, y).
unreach(x) :- node(x), !reach(x).
lonely(x) :- unreach(x), !e(x, 4), !e(4, x).`,
			want: map[string]string{"node": "1; 2; 3; 4; 5; 6", "reach": "1; 2; 3", "unreach": "4; 5; 6", "lonely": "4; 6"},
		},
		{
			name: "empty input",
			src: `.decl e(x:number, y:number)
.input e
.decl n(x:number)
.decl p(x:number, y:number)
.decl free(x:number)
n(1). n(2).
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).
free(x) :- n(x), !e(x, _), !p(_, x).`,
			facts: map[string]string{"e": ""},
			want:  map[string]string{"e": "", "p": "", "free": "1; 2"},
		},
		{
			name: "ternary relations",
			src: `.decl t(x:number, y:number, z:number)
.decl u(x:number, y:number, z:number)
t(1, 2, 3). t(3, 2, 1). t(1, 1, 1).
u(z, y, x) :- t(x, y, z).
u(x, y, z) :- u(x, y, w), t(w, _, z), x != z.`,
			want: map[string]string{"u": "3 2 1; 1 2 3; 1 1 1; 1 1 3"},
		},
		{
			name: "large values",
			src: `.decl e(x:number, y:number)
.decl p(x:number, y:number)
e(1000000, 2000000). e(2000000, 1). e(1, 2147483647).
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).`,
			want: map[string]string{
				"p": "1000000 2000000; 2000000 1; 1 2147483647; 1000000 1; 2000000 2147483647; 1000000 2147483647",
			},
		},
		{
			name: "rule without positive atoms",
			src: `.decl r(x:number)
.decl q(x:number)
.decl z(x:number)
r(1) :- 1 < 2.
r(2) :- 2 < 1.
q(3) :- !z(3).
q(4) :- !r(1).`,
			want: map[string]string{"r": "1", "q": "3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := evalProgram(t, tt.src, tt.facts)
			for rel, want := range tt.want {
				if got := rows(db, rel); !slices.Equal(got, lines(want)) {
					t.Errorf("%s = %q, want %q", rel, got, lines(want))
				}
				if db.Len(rel) != len(lines(want)) {
					t.Errorf("Len(%s) = %d, want %d", rel, db.Len(rel), len(lines(want)))
				}
			}
		})
	}
}

func TestStats(t *testing.T) {
	src := `.decl edge(x:number, y:number)
.decl path(x:number, y:number)
.decl unreached(x:number)
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z).
unreached(y) :- edge(_, y), !path(1, y).
edge(1, 2). edge(2, 3). edge(3, 4). edge(4, 5). edge(6, 5). edge(7, 6).
`
	db, stats := evalProgram(t, src, nil)
	prog := db.Program()
	if len(stats.Strata) != len(prog.Strata) || len(stats.Strata) != 3 {
		t.Fatalf("%d strata in stats, %d in the program, want 3", len(stats.Strata), len(prog.Strata))
	}
	for i, s := range stats.Strata {
		var names []string
		for _, r := range prog.Strata[i].Relations {
			names = append(names, r.Name)
		}
		if !slices.Equal(s.Relations, names) {
			t.Errorf("stratum %d: relations %v, want %v", i, s.Relations, names)
		}
	}
	// edge, then path, then unreached.
	want := []struct {
		rels       string
		iterations int
		tuples     int
	}{
		{"edge", 1, 6},
		// path: the initial pass copies the 6 edges; then rounds find the
		// paths of length 2 (1-3 2-4 3-5 7-5), 3 (1-4 2-5), 4 (1-5), and a
		// last round finds nothing.
		{"path", 5, 6 + 4 + 2 + 1},
		{"unreached", 1, 1},
	}
	for i, w := range want {
		s := stats.Strata[i]
		if strings.Join(s.Relations, " ") != w.rels || s.Iterations != w.iterations || s.Tuples != w.tuples {
			t.Errorf("stratum %d: %v, %d iterations, %d tuples; want %s, %d, %d", i, s.Relations, s.Iterations, s.Tuples, w.rels, w.iterations, w.tuples)
		}
	}
	if len(stats.Rules) != len(prog.Rules) {
		t.Fatalf("%d rule stats, want %d", len(stats.Rules), len(prog.Rules))
	}
	wantRules := []struct {
		tuples, evaluations int
	}{
		{6, 1},                                         // path(x, y) :- edge(x, y).
		{4 + 2 + 1, 4},                                 // the recursive rule, once per iteration after the first
		{1, 1},                                         // unreached(6)
		{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, // the facts
	}
	for i, w := range wantRules {
		r := stats.Rules[i]
		if r.Rule != prog.Rules[i].String() || r.Pos != prog.Rules[i].Pos {
			t.Errorf("rule %d: %s at %v, want %s at %v", i, r.Rule, r.Pos, prog.Rules[i], prog.Rules[i].Pos)
		}
		if r.Tuples != w.tuples || r.Evaluations != w.evaluations {
			t.Errorf("rule %d (%s): %d tuples, %d evaluations; want %d, %d", i, r.Rule, r.Tuples, r.Evaluations, w.tuples, w.evaluations)
		}
	}
	if got := rows(db, "unreached"); !slices.Equal(got, lines("6")) {
		t.Errorf("unreached = %v", got)
	}
	var buf bytes.Buffer
	if err := stats.Write(&buf); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"stratum", "iterations", "path(x, z) :- path(x, y), edge(y, z).", "p.dl:5:1", "total"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("Stats.Write output lacks %q:\n%s", s, buf.String())
		}
	}
}

func TestReadFactsErrors(t *testing.T) {
	src := `.type S <: symbol
.decl e(x:number, y:number)
.decl s(name:S, n:number)
.decl one(n:number)`
	tests := []struct {
		rel, data string
		pos       string // line:col
		msg       string
	}{
		{"e", "1\t2\n3\n", "2:2", "e needs 2 tab-separated columns, found 1"},
		{"e", "1 2\n", "1:4", "e needs 2 tab-separated columns, found 1"},
		{"e", "1\t2\t3\n", "1:5", "e has 2 columns, found more"},
		{"e", "1\t2\t\n", "1:5", "e has 2 columns, found more"},
		{"one", "1\t\n", "1:3", "one has 1 columns, found more"},
		{"e", "1\tx\n", "1:3", `column y of e: "x" is not a 32-bit number`},
		{"e", "1\t2147483648\n", "1:3", `column y of e: "2147483648" is not a 32-bit number`},
		{"e", "-2147483649\t0\n", "1:1", `column x of e: "-2147483649" is not a 32-bit number`},
		{"e", "1\t\n", "1:3", `column y of e: "" is not a 32-bit number`},
		{"e", " 1\t2\n", "1:1", `column x of e: " 1" is not a 32-bit number`},
		{"e", "\n\n1\t2\r\n\n5\t6\t7", "5:5", "found more"},
		{"s", "a b\t1\nc\td", "2:3", `column n of s: "d" is not a 32-bit number`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %q", tt.rel, tt.data), func(t *testing.T) {
			db := NewDatabase(mustParse(t, src))
			err := db.ReadFacts("dir/"+tt.rel+".facts", []byte(tt.data), tt.rel)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			want := "dir/" + tt.rel + ".facts:" + tt.pos + ": "
			if !strings.HasPrefix(err.Error(), want) || !strings.Contains(e.Msg, tt.msg) {
				t.Errorf("error %q, want %q...%q", err, want, tt.msg)
			}
		})
	}
}

func TestReadFacts(t *testing.T) {
	db := NewDatabase(mustParse(t, `.type S <: symbol
.decl s(name:S, n:number)
.decl c(x:S)
c(x) :- s(x, _).`))
	err := db.ReadFacts("s.facts", []byte("a b\t1\r\n\n  c \t-2\nd\t2147483647\n\t0"), "s")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.ReadFacts("s.facts", []byte("a b\t1\n"), "s"); err != nil { // a duplicate
		t.Fatal(err)
	}
	if _, err := db.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := rows(db, "s"), []string{"\t0", "  c \t-2", "a b\t1", "d\t2147483647"}; !slices.Equal(got, want) {
		t.Errorf("s = %q, want %q", got, want)
	}
	if got, want := rows(db, "c"), []string{"", "  c ", "a b", "d"}; !slices.Equal(got, want) {
		t.Errorf("c = %q, want %q", got, want)
	}
	if err := db.ReadFacts("c.facts", []byte("x\n"), "c"); err == nil || !strings.Contains(err.Error(), "c.facts: adding to c after Run: rules derive it") {
		t.Errorf("ReadFacts into a derived relation after Run: %v", err)
	}
	if err := db.ReadFacts("s.facts", []byte("x\t1\n"), "s"); err != nil {
		t.Fatalf("ReadFacts after Run: %v", err)
	}
	if _, err := db.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := rows(db, "c"), []string{"", "  c ", "a b", "d", "x"}; !slices.Equal(got, want) {
		t.Errorf("c after a second Run = %q, want %q", got, want)
	}
	if err := db.ReadFacts("z.facts", nil, "zz"); err == nil || !strings.Contains(err.Error(), "unknown relation zz") {
		t.Errorf("ReadFacts of an unknown relation: %v", err)
	}
}

func TestLoadAndWrite(t *testing.T) {
	dir := t.TempDir()
	prog := mustParse(t, `.type S <: symbol
.decl e(x:S, y:number)
.input e
.decl f(x:number)
.input f
.decl out(x:S, y:number)
.output out
.decl internal(x:number)
internal(y) :- e(_, y).
out(x, y) :- e(x, y), f(y).
`)
	if err := os.WriteFile(filepath.Join(dir, "e.facts"), []byte("a\t1\nb\t2\nc c\t-3\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	db := NewDatabase(prog)
	err := db.LoadFacts(dir)
	if err == nil || !strings.Contains(err.Error(), "no fact file for input relation f") || !strings.Contains(err.Error(), "f.facts") {
		t.Errorf("LoadFacts without f.facts: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.facts"), []byte("-3\n2\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	db = NewDatabase(prog)
	if err := db.LoadFacts(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Run(); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := db.WriteOutputs(out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "out.csv"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	slices.Sort(got)
	if want := []string{"b\t2", "c c\t-3"}; !slices.Equal(got, want) {
		t.Errorf("out.csv = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(out, "internal.csv")); err == nil {
		t.Errorf("internal.csv written for a relation that is not an output")
	}
	var buf bytes.Buffer
	if err := db.WriteRelation(&buf, "internal"); err != nil {
		t.Fatal(err)
	}
	got = strings.Fields(buf.String())
	slices.Sort(got)
	if want := []string{"-3", "1", "2"}; !slices.Equal(got, want) {
		t.Errorf("internal = %q, want %q", got, want)
	}
	if err := db.WriteRelation(&buf, "nope"); err == nil {
		t.Errorf("WriteRelation of an unknown relation succeeded")
	}
	if err := db.WriteOutputs(filepath.Join(out, "missing", "dir")); err == nil {
		t.Errorf("WriteOutputs to a missing directory succeeded")
	}
}

func TestDatabaseAPI(t *testing.T) {
	prog := mustParse(t, `.type S <: symbol
.decl e(x:S, y:number)
.decl p(x:S)
p(x) :- e(x, y), y > 0.`)
	db := NewDatabase(prog)
	if db.Program() != prog {
		t.Errorf("Program() differs")
	}
	S := prog.Type("S")
	a, b := db.Intern(S, "a"), db.Intern(S, "b")
	if a == b || db.Intern(S, "a") != a || db.Text(S, b) != "b" {
		t.Errorf("Intern: a=%d b=%d", a, b)
	}
	if db.Text(prog.Type("number"), Number(-7)) != "-7" || Number(-1) != 0xFFFFFFFF {
		t.Errorf("Number/Text wrong")
	}
	for _, tc := range []struct {
		rel   string
		tuple []uint32
		msg   string
	}{
		{"zz", []uint32{1}, "unknown relation zz"},
		{"e", []uint32{a}, "e has 2 columns, got a tuple of 1"},
		{"e", []uint32{a, 1, 2}, "e has 2 columns, got a tuple of 3"},
		{"e", []uint32{99, 1}, "e column 0: 99 is not an interned symbol of type S"},
	} {
		if err := db.Add(tc.rel, tc.tuple...); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Add(%s, %v) = %v, want %q", tc.rel, tc.tuple, err, tc.msg)
		}
	}
	for _, tup := range [][]uint32{{a, Number(1)}, {b, Number(-1)}, {a, Number(1)}} {
		if err := db.Add("e", tup...); err != nil {
			t.Fatal(err)
		}
	}
	if db.Len("e") != 2 || !db.Contains("e", b, Number(-1)) || db.Contains("e", b, Number(1)) {
		t.Errorf("before Run: Len %d", db.Len("e"))
	}
	if _, err := db.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Run(); err != nil {
		t.Errorf("second Run with no new facts: %v", err)
	}
	if err := db.Add("p", b); err == nil || !strings.Contains(err.Error(), "adding to p after Run: rules derive it") {
		t.Errorf("Add to a derived relation after Run: %v", err)
	}
	if !db.Contains("p", a) || db.Contains("p", b) || db.Len("p") != 1 {
		t.Errorf("p wrong: %v", rows(db, "p"))
	}
	if db.Contains("p", a, a) || db.Contains("zz", a) || db.Len("zz") != 0 {
		t.Errorf("Contains/Len of bad arity or unknown relation")
	}
	n := 0
	for range db.Tuples("zz") {
		n++
	}
	for range db.Tuples("e") {
		n++
		break
	}
	if n != 1 {
		t.Errorf("Tuples: %d iterations, want 1", n)
	}
}

// TestDenseAndHash runs the same program with values that make the engine
// choose bitsets and values that make it choose hash sets.
func TestDenseAndHash(t *testing.T) {
	src := `.decl e(x:number, y:number)
.input e
.decl p(x:number, y:number)
.decl self(x:number)
.decl nope(x:number, y:number)
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).
self(x) :- p(x, x).
nope(x, y) :- p(x, _), p(_, y), !p(x, y).
.decl back(x:number, y:number)
back(x, y) :- p(x, y), e(y, x).
`
	for _, scale := range []int{1, 1 << 20, -1} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) {
			var facts strings.Builder
			// A cycle 0-1-2-0 and a tail 2-3-4.
			for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}} {
				fmt.Fprintf(&facts, "%d\t%d\n", e[0]*scale, e[1]*scale)
			}
			db, _ := evalProgram(t, src, map[string]string{"e": facts.String()})
			var want []string
			for _, x := range []int{0, 1, 2} {
				for _, y := range []int{0, 1, 2, 3, 4} {
					want = append(want, fmt.Sprintf("%d\t%d", x*scale, y*scale))
				}
			}
			want = append(want, fmt.Sprintf("%d\t%d", 3*scale, 4*scale))
			slices.Sort(want)
			if got := rows(db, "p"); !slices.Equal(got, want) {
				t.Errorf("p = %q, want %q", got, want)
			}
			if got := rows(db, "self"); len(got) != 3 {
				t.Errorf("self = %q", got)
			}
			// nope: sources {0,1,2,3} x targets {0..4} minus p.
			if got := rows(db, "nope"); len(got) != 4*5-len(want) {
				t.Errorf("nope = %q", got)
			}
			// back tests the input e for whole tuples, with its hash set
			// rebuilt: inputs never get bitsets (doc.go, Storage).
			back := []string{fmt.Sprintf("%d\t%d", 0, 2*scale), fmt.Sprintf("%d\t%d", scale, 0), fmt.Sprintf("%d\t%d", 2*scale, scale)}
			slices.Sort(back)
			if got := rows(db, "back"); !slices.Equal(got, back) {
				t.Errorf("back = %q, want %q", got, back)
			}
			dense := db.rels[db.Program().Relation("p").index].dense != nil
			if dense != (scale == 1) {
				t.Errorf("p uses bitsets: %v", dense)
			}
			if db.rels[db.Program().Relation("e").index].dense != nil {
				t.Errorf("the input e uses bitsets")
			}
		})
	}
}

// TestDenseMemory: a binary relation whose first column has a large bound and
// whose second a tiny one must not take a bitset header (32 bytes) for every
// possible first value: 4 GiB here, for two tuples.
func TestDenseMemory(t *testing.T) {
	src := `.type S <: symbol
.decl r(x:number, s:S)
.decl q(s:S, x:number)
r(134217727, "a"). r(0, "b").
q(s, x) :- r(x, s).`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	db, _ := evalProgram(t, src, nil)
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
		t.Errorf("Run allocated %d MiB for two tuples", d>>20)
	}
	if got := rows(db, "q"); !slices.Equal(got, lines("a 134217727; b 0")) {
		t.Errorf("q = %q", got)
	}
}

// TestAddDistinct: tuples added without duplicate elimination give the
// same results as AddFlat, whether the relation stays a hash relation (a
// rule extends it, so its set is rebuilt) or becomes dense.
func TestAddDistinct(t *testing.T) {
	const src = `
.type N <: number
.decl e(x:N, y:N)
.decl p(x:N, y:N)
.input e
.output p
e(x, z) :- p(x, y), e(y, z), x = 1000000.
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).
`
	prog, err := Parse("t.dl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, big := range []uint32{10, 1 << 30} { // dense bounds, then too big for bitsets
		edges := []uint32{1, 2, 2, 3, 3, 4, big, 1}
		var counts [2]int
		for k, add := range []func(*Database) error{
			func(db *Database) error { return db.AddFlat("e", edges) },
			func(db *Database) error { return db.AddDistinct("e", edges) },
		} {
			db := NewDatabase(prog)
			if err := add(db); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Run(); err != nil {
				t.Fatal(err)
			}
			counts[k] = db.Len("p")
		}
		if counts[0] != counts[1] || counts[0] != 10 {
			t.Errorf("bound %d: p has %d tuples with AddFlat, %d with AddDistinct; want 10", big, counts[0], counts[1])
		}
	}
}

// TestGeneratedShapes runs generated programs of the shapes that once made
// the engine's cost grow with the square of their size: a chain of 20,000
// strata and rules with 10,000 body atoms. Their answers are known.
func TestGeneratedShapes(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		want   map[string]string // relation -> "a b; c d"
		strata int
	}{
		{"chain of 20,000 strata", chainProgram(20000, 3), map[string]string{"r0": "0; 1; 2", "r19999": "0; 1; 2"}, 20000},
		{"rule with 10,000 atoms", wideRuleProgram(10000), map[string]string{"reach": "0 0; 1 1"}, 2},
		{"rule with 10,001 atoms", wideRuleProgram(10001), map[string]string{"reach": "0 1; 1 0"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, stats := evalProgram(t, tt.src, nil)
			prog := db.Program()
			if len(prog.Strata) != tt.strata || len(stats.Strata) != tt.strata {
				t.Fatalf("%d strata, %d in stats, want %d", len(prog.Strata), len(stats.Strata), tt.strata)
			}
			stratum := map[*Relation]int{}
			for i, s := range prog.Strata {
				for _, r := range s.Relations {
					stratum[r] = i
				}
			}
			for _, r := range prog.Rules {
				for _, a := range r.Body {
					if stratum[a.Rel] >= stratum[r.Head.Rel] {
						t.Fatalf("%s: %s is evaluated in stratum %d, not before %s's %d", r.Pos, a.Rel.Name, stratum[a.Rel], r.Head.Rel.Name, stratum[r.Head.Rel])
					}
				}
			}
			for rel, want := range tt.want {
				if got := rows(db, rel); !slices.Equal(got, lines(want)) {
					t.Errorf("%s = %q, want %q", rel, got, lines(want))
				}
			}
		})
	}
}

// TestRunAgain adds facts after a Run and runs again: the result must be
// that of one Run over all the facts, or an error when a rule negates a
// relation that grew.
func TestRunAgain(t *testing.T) {
	const tc = `.decl edge(x:number, y:number)
.decl path(x:number, y:number)
.decl blocked(x:number)
.decl open(x:number, y:number)
path(x, y) :- edge(x, y).
path(x, z) :- path(x, y), edge(y, z).
open(x, y) :- path(x, y), !blocked(y).
`
	big := uint32(1) << 29 // past the dense budget: path must move to the hash set
	for _, tt := range []struct {
		name          string
		before, after [][]uint32 // edges
		blockedAfter  []uint32
		wantPath      int
		wantErr       string
	}{
		{"chain grows", [][]uint32{{1, 2}, {2, 3}}, [][]uint32{{3, 4}, {0, 1}}, nil, 10, ""},
		{"nothing added", [][]uint32{{1, 2}, {2, 3}}, nil, nil, 3, ""},
		{"domain grows past the dense budget", [][]uint32{{1, 2}}, [][]uint32{{2, big}, {big, 1}}, nil, 9, ""},
		{"negated relation grows", [][]uint32{{1, 2}}, nil, []uint32{2}, 0, "rule.dl:7:1: blocked grew since the last Run, and this rule negates it"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			prog, err := Parse("rule.dl", []byte(tc))
			if err != nil {
				t.Fatal(err)
			}
			once, twice := NewDatabase(prog), NewDatabase(prog)
			for _, e := range append(slices.Clone(tt.before), tt.after...) {
				once.Add("edge", e...)
			}
			for _, e := range tt.before {
				twice.Add("edge", e...)
			}
			if _, err := once.Run(); err != nil {
				t.Fatal(err)
			}
			if _, err := twice.Run(); err != nil {
				t.Fatal(err)
			}
			for _, e := range tt.after {
				if err := twice.Add("edge", e...); err != nil {
					t.Fatal(err)
				}
			}
			for _, b := range tt.blockedAfter {
				if err := twice.Add("blocked", b); err != nil {
					t.Fatal(err)
				}
			}
			_, err = twice.Run()
			if tt.wantErr != "" {
				if err == nil || err.Error() != "datalog: "+tt.wantErr {
					t.Fatalf("second Run: %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, rel := range []string{"path", "open"} {
				got, want := rows(twice, rel), rows(once, rel)
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Errorf("%s after two runs %q, after one %q", rel, got, want)
				}
			}
			if n := twice.Len("path"); n != tt.wantPath {
				t.Errorf("path has %d tuples, want %d", n, tt.wantPath)
			}
		})
	}
}

// TestAddFrom checks that a database reading another one's relations with
// AddFrom derives what it derives from copies of their tuples, shares the
// indexes the other built, and that neither database's later facts change
// what the other reads (run with -race: two readers borrow at once).
func TestAddFrom(t *testing.T) {
	// The lender is transitive closure; the reader joins its relations.
	const readerSrc = `
.decl edge(x:number, y:number)
.decl path(x:number, y:number)
.decl q(x:number, y:number)
.input edge, path
q(x, z) :- path(x, y), edge(y, z), x != z.
`
	lenderProg, readerProg := mustParse(t, tcProgram), mustParse(t, readerSrc)
	edges := []uint32{1, 2, 2, 3, 3, 4, 4, 1, 5, 6}
	lender := NewDatabase(lenderProg)
	if err := lender.AddFlat("edge", edges); err != nil {
		t.Fatal(err)
	}
	if _, err := lender.Run(); err != nil {
		t.Fatal(err)
	}
	tuples := func(db *Database, rel string) [][]uint32 {
		var out [][]uint32
		for tu := range db.Tuples(rel) {
			out = append(out, slices.Clone(tu))
		}
		return out
	}
	// The reference: the reader given copies, with no indexes.
	copied := NewDatabase(readerProg)
	for _, rel := range []string{"edge", "path"} {
		if err := copied.AddDistinct(rel, slices.Clone(lender.Flat(rel))); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := copied.Run(); err != nil {
		t.Fatal(err)
	}
	want := tuples(copied, "q")
	if len(want) == 0 {
		t.Fatal("the reference derived no q")
	}

	readers := make([]*Database, 2)
	errs := make([]error, len(readers))
	var wg sync.WaitGroup
	for k := range readers {
		wg.Go(func() {
			db := NewDatabase(readerProg)
			for _, rel := range []string{"edge", "path"} {
				if err := db.AddFrom(lender, rel); err != nil {
					errs[k] = err
					return
				}
			}
			_, errs[k] = db.Run()
			readers[k] = db
		})
	}
	wg.Wait()
	for k, db := range readers {
		if errs[k] != nil {
			t.Fatal(errs[k])
		}
		if got := tuples(db, "q"); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("reader %d: q = %v, want %v", k, got, want)
		}
		if shared := db.rels[readerProg.Relation("edge").index].indexes; len(shared) == 0 || shared[0] != lender.rels[lenderProg.Relation("edge").index].indexes[0] {
			t.Errorf("reader %d does not share the lender's index on edge", k)
		}
	}

	// More facts on either side copy the shared indexes first: the lender
	// grows edge and path, one reader grows its edge with other edges; each then
	// derives what a fresh database given the same facts derives.
	more := []uint32{6, 7, 4, 5}
	if err := lender.AddFlat("edge", more); err != nil {
		t.Fatal(err)
	}
	if _, err := lender.Run(); err != nil {
		t.Fatal(err)
	}
	other := []uint32{2, 9, 9, 3}
	if err := readers[0].AddFlat("edge", other); err != nil {
		t.Fatal(err)
	}
	if _, err := readers[0].Run(); err != nil {
		t.Fatal(err)
	}
	fresh := NewDatabase(lenderProg)
	if err := fresh.AddFlat("edge", append(slices.Clone(edges), more...)); err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(tuples(lender, "path")), len(tuples(fresh, "path")); got != want {
		t.Errorf("lender after more facts: %d p tuples, want %d", got, want)
	}
	freshReader := NewDatabase(readerProg)
	freshReader.AddFlat("edge", append(slices.Clone(edges), other...))
	freshReader.AddDistinct("path", slices.Clone(readers[0].Flat("path")))
	if _, err := freshReader.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(tuples(readers[0], "q")), len(tuples(freshReader, "q")); got != want {
		t.Errorf("reader after more facts: %d q tuples, want %d", got, want)
	}
	// A plan asking for the index on edge gets the reader's copy, which
	// chains its tuples, not the index it shared.
	if edge := readers[0].rels[readerProg.Relation("edge").index]; len(edge.index([]int{0}).next) != edge.n {
		t.Errorf("grown reader's index on edge chains %d tuples, want its %d", len(edge.index([]int{0}).next), edge.n)
	}
	// The other reader still reads the lender's first tuples and indexes,
	// which index its tuples only.
	if ix := readers[1].rels[readerProg.Relation("edge").index].indexes[0]; len(ix.next) != readers[1].Len("edge") {
		t.Errorf("untouched reader's index on edge chains %d tuples, want its %d", len(ix.next), readers[1].Len("edge"))
	}
	if got := tuples(readers[1], "q"); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("untouched reader: q = %v, want %v", got, want)
	}
	again := NewDatabase(readerProg) // through the index on edge shared first
	for _, rel := range []string{"edge", "path"} {
		if err := again.AddFrom(readers[1], rel); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := again.Run(); err != nil {
		t.Fatal(err)
	}
	if got := tuples(again, "q"); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("borrowing from a borrower: q = %v, want %v", got, want)
	}

	for _, tt := range []struct{ src, want string }{
		{".decl edge(x:number)\n.input edge\n", "edge has 1 columns, and 2 in the database it is added from"},
		{".decl edge(x:number, y:symbol)\n.input edge\n", "edge: symbol columns are interned per database, and cannot be shared"},
		{".decl f(x:number)\n.input f\n", "unknown relation edge"},
	} {
		if err := NewDatabase(mustParse(t, tt.src)).AddFrom(lender, "edge"); err == nil || err.Error() != tt.want {
			t.Errorf("AddFrom into %q: %v, want %s", tt.src, err, tt.want)
		}
	}
}

// TestCatchUp checks that indexes brought up to date together, on several
// goroutines when the work is large enough, hold what indexes built one
// tuple at a time hold, and that an index on an earlier plan's columns
// covers the tuples added since when a plan asks for another.
func TestCatchUp(t *testing.T) {
	decl := mustParse(t, ".decl r(x:number, y:number, z:number)\n").Relation("r")
	for _, n := range []int{10, catchUpParallel} { // one goroutine, then one per index
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			lazy, eager := newRelation(decl), newRelation(decl)
			cols := [][]int{{0}, {1, 2}, {2}}
			var want []*hashIndex
			for _, c := range cols {
				lazy.index(c)
				ix := &hashIndex{}
				ix.init(c, true, 0)
				want = append(want, ix)
			}
			for i := range n {
				tu := []uint32{uint32(i % 7), uint32(i % 13), uint32(i)}
				lazy.insert(tu)
				eager.insert(tu)
				for _, ix := range want {
					ix.add(eager, uint32(i))
				}
			}
			lazy.index([]int{0, 1}) // a new plan: every index catches up
			for k, ix := range want {
				got := lazy.indexes[k]
				if len(got.next) != n || !slices.Equal(got.next, ix.next) || got.used != ix.used {
					t.Errorf("index on %v: %d tuples chained, %d keys; want %d, %d, same chains", cols[k], len(got.next), got.used, n, ix.used)
				}
				for key := range uint32(7) {
					if g, w := got.lookup(lazy, []uint32{key, key, key}[:len(cols[k])]), ix.lookup(eager, []uint32{key, key, key}[:len(cols[k])]); g != w {
						t.Errorf("index on %v, key %d: newest tuple %d, want %d", cols[k], key, g, w)
					}
				}
			}
		})
	}
}

// An index built over a relation's tuples fits its slots to its keys and
// answers every lookup as one built tuple by tuple. The keys are spread
// out so that the index hashes them (byValueFits is false).
func TestIndexFit(t *testing.T) {
	const spread = 1 << 16
	decl := mustParse(t, ".decl r(x:number, y:number)\n").Relation("r")
	for _, tt := range []struct {
		name       string
		tuples     int
		keysOfCol0 int
	}{
		{"few keys", 5000, 7},
		{"a key per tuple", 5000, 5000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, eager := newRelation(decl), newRelation(decl)
			want := &hashIndex{}
			want.init([]int{0}, true, 0)
			for i := range tt.tuples {
				tu := []uint32{uint32(i%tt.keysOfCol0) * spread, uint32(i)}
				r.insert(tu)
				eager.insert(tu)
				want.add(eager, uint32(i))
			}
			got := r.index([]int{0})
			if got.byValue != nil || len(got.slots) != slotsFor(got.used) {
				t.Errorf("%d slots for %d keys, want %d", len(got.slots), got.used, slotsFor(got.used))
			}
			if got.used != want.used || !slices.Equal(got.next, want.next) {
				t.Errorf("%d keys, chains equal %v; want %d keys, equal chains", got.used, slices.Equal(got.next, want.next), want.used)
			}
			for key := range uint32(tt.keysOfCol0 + 1) {
				if g, w := got.lookup(r, []uint32{key * spread}), want.lookup(eager, []uint32{key * spread}); g != w {
					t.Errorf("key %d: newest tuple %d, want %d", key, g, w)
				}
			}
		})
	}
}

// TestIndexByValue checks that an index on one column of small values is
// an array by value, that it finds what a hash index built tuple by
// tuple finds as the relation grows, and that it turns into a hash index
// with the same answers when a value is too large for the array.
func TestIndexByValue(t *testing.T) {
	decl := mustParse(t, ".decl r(x:number, y:number)\n").Relation("r")
	r, eager := newRelation(decl), newRelation(decl)
	want := &hashIndex{}
	want.init([]int{0}, true, 0)
	add := func(x, y uint32) {
		tu := []uint32{x, y}
		if r.insert(tu) {
			eager.insert(tu)
			want.add(eager, uint32(eager.n-1))
		}
	}
	check := func(stage string, byValue bool, keys ...uint32) {
		t.Helper()
		got := r.index([]int{0})
		if (got.byValue != nil) != byValue {
			t.Errorf("%s: by value %v, want %v", stage, got.byValue != nil, byValue)
		}
		if got.used != want.used || !slices.Equal(got.next, want.next) {
			t.Errorf("%s: %d keys, chains equal %v; want %d keys", stage, got.used, slices.Equal(got.next, want.next), want.used)
		}
		for _, key := range keys {
			if g, w := got.lookup(r, []uint32{key}), want.lookup(eager, []uint32{key}); g != w {
				t.Errorf("%s, key %d: newest tuple %d, want %d", stage, key, g, w)
			}
		}
	}
	var keys []uint32
	for i := range uint32(1000) {
		add(i%50, i)
		keys = append(keys, i)
	}
	check("built", true, keys...)
	for i := range uint32(1000) { // values past the array, which grows
		add(50+i%70, i)
	}
	check("grown", true, keys...)
	add(1<<20, 1)
	add(1<<20, 2)
	add(3, 1<<20)
	check("hashed", false, append(keys, 1<<20, 1<<20+1)...)
}

// TestDistinct checks that a column's count of distinct values, which the
// planner's estimates use instead of an index on the column, is the
// number of keys of that index as the relation grows, and that a value
// too large to count with bits makes it decline.
func TestDistinct(t *testing.T) {
	decl := mustParse(t, ".decl r(x:number, y:number)\n").Relation("r")
	r := newRelation(decl)
	for _, n := range []int{0, 10, 1000, 5000} {
		for i := r.n; i < n; i++ {
			r.insert([]uint32{uint32(i % 37), uint32(i * 7 % 1001)})
		}
		for c := range 2 {
			if got, ok := r.distinct(c); !ok || got != r.index([]int{c}).used {
				t.Errorf("%d tuples, column %d: %d distinct (ok %v), the index has %d keys", n, c, got, ok, r.index([]int{c}).used)
			}
		}
	}
	r.insert([]uint32{1, columnKeysMax})
	if _, ok := r.distinct(1); ok {
		t.Errorf("a value of %d counted with bits", columnKeysMax)
	}
	if got, ok := r.distinct(0); !ok || got != 37 {
		t.Errorf("column 0: %d distinct (ok %v), want 37", got, ok)
	}
}

// A released database reads the same tuples, answers membership, and
// runs on after more facts to what a database never released derives.
func TestRelease(t *testing.T) {
	prog := mustParse(t, `.decl e(x:number, y:number)
.input e
.decl p(x:number, y:number)
p(x, y) :- e(x, y).
p(x, z) :- p(x, y), e(y, z).
`)
	// Values past the dense budget's reach: p keeps a hash set and indexes.
	const base = 1 << 20
	edges := func(from, to int) []uint32 {
		var out []uint32
		for i := from; i < to; i++ {
			out = append(out, base+uint32(i), base+uint32(i+1))
		}
		return out
	}
	var dbs [2]*Database
	for i, release := range []bool{false, true} {
		db := NewDatabase(prog)
		if err := db.AddFlat("e", edges(0, 30)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Run(); err != nil {
			t.Fatal(err)
		}
		built := func() (indexes int, set bool) {
			for _, r := range db.rels {
				indexes += len(r.indexes)
			}
			return indexes, db.rels[prog.Relation("p").index].set.slots != nil
		}
		if n, set := built(); n == 0 || !set {
			t.Fatalf("after Run: %d indexes, p's hash set %v; want some to release", n, set)
		}
		if release {
			db.Release()
			if n, set := built(); n > 0 || set {
				t.Fatalf("after Release: %d indexes, p's hash set kept %v", n, set)
			}
		}
		dbs[i] = db
	}
	kept, released := dbs[0], dbs[1]
	if !slices.Equal(kept.Flat("p"), released.Flat("p")) {
		t.Errorf("p differs after Release")
	}
	for _, tu := range [][]uint32{{base, base + 30}, {base + 30, base}} {
		if g, w := released.Contains("p", tu...), kept.Contains("p", tu...); g != w {
			t.Errorf("Contains(p, %v) = %v after Release, want %v", tu, g, w)
		}
	}
	for _, db := range dbs {
		if err := db.AddFlat("e", edges(30, 60)); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Run(); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(kept.Flat("p"), released.Flat("p")) || released.Len("p") != 60*61/2 {
		t.Errorf("p after more facts: %d tuples released, %d kept, want %d, the same", released.Len("p"), kept.Len("p"), 60*61/2)
	}
}

// A plan is reused while the relations it estimated stay within a factor
// of planReuse of their sizes then, and made again past it; a reused plan
// reads indexes brought up to date; Release drops the plans; and the
// tuples are those a fresh database derives.
func TestPlanReuse(t *testing.T) {
	const src = `
.decl a(x:number, y:number)
.decl b(y:number, z:number)
.decl h(x:number, z:number)
.input a, b
h(x, z) :- a(x, y), b(y, z).
`
	prog := mustParse(t, src)
	db := NewDatabase(prog)
	var all = map[string][]uint32{}
	add := func(rel string, n, from int) {
		t.Helper()
		var flat []uint32
		for i := from; i < from+n; i++ { // a(i, i%5), b(i%5, i): each joins the other's every tuple
			if rel == "a" {
				flat = append(flat, uint32(i), uint32(i%5))
			} else {
				flat = append(flat, uint32(i%5), uint32(i))
			}
		}
		all[rel] = append(all[rel], flat...)
		if err := db.AddFlat(rel, flat); err != nil {
			t.Fatal(err)
		}
	}
	run := func() {
		t.Helper()
		if _, err := db.Run(); err != nil {
			t.Fatal(err)
		}
	}
	add("a", 10, 0)
	add("b", 10, 0)
	run()
	add("a", 2, 10) // a variant per atom, each planned by the other's size
	add("b", 2, 10)
	run()
	key := [2]int{0, 0}
	made := db.plans[key]
	if made == nil {
		t.Fatal("no plan kept for h's variant reading a's delta")
	}
	add("a", 2, 20)
	add("b", 5, 20) // 12 -> 17 tuples: within the factor
	run()
	if db.plans[key] != made {
		t.Error("plan made again for b at 17 tuples, made for 12")
	}
	add("a", 2, 30)
	add("b", 20, 40) // 17 -> 37 tuples: past the factor
	run()
	if db.plans[key] == made {
		t.Error("plan reused for b at 37 tuples, made for 12")
	}
	db.Release() // drops the plans with the indexes they read
	if len(db.plans) > 0 {
		t.Errorf("%d plans kept after Release", len(db.plans))
	}
	add("a", 2, 60)
	add("b", 2, 60)
	run()
	fresh := NewDatabase(prog)
	for rel, flat := range all {
		if err := fresh.AddFlat(rel, flat); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := fresh.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := rows(db, "h"), rows(fresh, "h"); !slices.Equal(got, want) {
		t.Errorf("h after reused plans: %d tuples, want %d:\n%v\nwant\n%v", len(got), len(want), got, want)
	}
}
