package datalog

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fuzzSeeds are programs for both fuzz targets: the golden programs with
// their facts written as program facts, the parse test programs, and a few
// random differential programs.
func fuzzSeeds(f *testing.F) []string {
	var seeds []string
	dirs, _ := filepath.Glob("testdata/golden/*")
	for _, dir := range dirs {
		src, err := os.ReadFile(filepath.Join(dir, "program.dl"))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, string(src))
		if s, err := inlineFacts(dir, string(src)); err == nil {
			seeds = append(seeds, s)
		} else {
			f.Fatal(err)
		}
	}
	for _, tt := range parseErrors {
		seeds = append(seeds, tt.src)
	}
	for seed := range uint64(8) {
		mode := domainMode(seed % 4)
		g := genProgram(rand.New(rand.NewPCG(seed, 99)), mode)
		for i := range g.facts {
			g.facts[i].how = 0
		}
		seeds = append(seeds, g.text())
	}
	seeds = append(seeds,
		decls+`s(x) :- s(x), s(y), x = y, x != "a", "b" = "c".`,
		decls+"a(x) :- a(x), e(_, _), !f(_, 3), x > -1.\na(1). e(2, 3).",
		".decl r(x:number, y:number)\nr(-1, -2).\nr(x, y) :- r(y, x), x < y.",
	)
	return seeds
}

// inlineFacts appends the .facts files of a golden directory to its program
// as facts.
func inlineFacts(dir, src string) (string, error) {
	prog, err := Parse("program.dl", []byte(src))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(src)
	for _, rel := range prog.Relations {
		data, err := os.ReadFile(filepath.Join(dir, rel.Name+".facts"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var args []string
			for i, field := range strings.Split(line, "\t") {
				if rel.Attrs[i].Type.Kind == SymbolKind {
					field = strconv.Quote(field)
				}
				args = append(args, field)
			}
			fmt.Fprintf(&b, "%s(%s).\n", rel.Name, strings.Join(args, ", "))
		}
	}
	return b.String(), nil
}

// checkParse is FuzzParse's property: Parse does not panic, and returns
// either a program or an *Error whose text starts with the file name and a
// position inside the source.
func checkParse(t *testing.T, src string) (*Program, error) {
	prog, err := Parse("fuzz.dl", []byte(src))
	if (prog == nil) == (err == nil) {
		t.Fatalf("Parse returned program %v and error %v", prog != nil, err)
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("error %T %v is not an *Error", err, err)
		}
		lines := strings.Count(src, "\n") + 1
		prefix := fmt.Sprintf("fuzz.dl:%d:%d: ", e.Pos.Line, e.Pos.Col)
		if e.Pos.File != "fuzz.dl" || e.Pos.Line < 1 || e.Pos.Line > lines || e.Pos.Col < 1 ||
			!strings.HasPrefix(err.Error(), prefix) || e.Msg == "" {
			t.Fatalf("bad error %q (pos %+v) for a source of %d lines", err, e.Pos, lines)
		}
	}
	return prog, err
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := checkParse(t, src)
		if err != nil {
			return
		}
		// A program's strata hold each relation and rule once.
		rels, rules := 0, 0
		for _, s := range prog.Strata {
			rels += len(s.Relations)
			rules += len(s.Rules)
		}
		if rels != len(prog.Relations) || rules != len(prog.Rules) {
			t.Fatalf("strata hold %d relations and %d rules, want %d and %d", rels, rules, len(prog.Relations), len(prog.Rules))
		}
		for _, r := range prog.Rules {
			_ = r.String()
		}
	})
}

// FuzzRun evaluates the programs that parse, when they are small, and
// compares the results with naiveRun.
func FuzzRun(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4000 {
			return
		}
		prog, err := checkParse(t, src)
		if err != nil || !smallEnough(prog) {
			return
		}
		db := NewDatabase(prog)
		if _, err := db.Run(); err != nil {
			t.Fatal(err)
		}
		want := naiveRun(prog)
		for _, rel := range prog.Relations {
			var got []string
			for tup := range db.Tuples(rel.Name) {
				if !db.Contains(rel.Name, tup...) {
					t.Fatalf("%s: Contains(%v) = false", rel.Name, tup)
				}
				var parts []string
				for i, v := range tup {
					parts = append(parts, db.Text(rel.Attrs[i].Type, v))
				}
				got = append(got, strings.Join(parts, "\t"))
			}
			slices.Sort(got)
			if len(slices.Compact(slices.Clone(got))) != len(got) || db.Len(rel.Name) != len(got) {
				t.Fatalf("%s: duplicate tuples or wrong Len: %q", rel.Name, got)
			}
			if w := want[rel.Name]; !slices.Equal(got, w) {
				t.Fatalf("%s:\n got %q\nwant %q", rel.Name, got, w)
			}
			if err := db.WriteRelation(&strings.Builder{}, rel.Name); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// smallEnough bounds naiveRun's work: with D distinct constants, a relation
// of arity k holds at most D^k tuples, and a rule's nested loops take at most
// the product of its positive atoms' sizes.
func smallEnough(prog *Program) bool {
	consts := map[string]bool{}
	for _, r := range prog.Rules {
		for _, a := range append([]Atom{r.Head}, r.Body...) {
			for _, t := range a.Args {
				if t.Kind == NumberTerm || t.Kind == SymbolTerm {
					consts[t.String()] = true
				}
			}
		}
	}
	d := float64(len(consts))
	for _, r := range prog.Rules {
		cost := 1.0
		for _, a := range r.Body {
			if !a.Negated {
				for range a.Args {
					cost *= d
				}
			}
		}
		if cost > 1e5 {
			return false
		}
	}
	return true
}

// naiveRun evaluates prog (with no facts but the program's) by iterating
// every rule over every tuple to a fixpoint, stratum by stratum. Numbers are
// int64s; symbols are ids in one table for all types (a variable has one
// type, so comparing ids compares text). The result has sorted tab-separated
// lines per relation.
func naiveRun(prog *Program) map[string][]string {
	var names []string
	ids := map[string]int64{}
	sym := func(s string) int64 {
		id, ok := ids[s]
		if !ok {
			id = int64(len(names))
			ids[s] = id
			names = append(names, s)
		}
		return id
	}
	rels := map[*Relation]map[string][]int64{}
	for _, r := range prog.Relations {
		rels[r] = map[string][]int64{}
	}
	termVal := func(t Term, env map[string]int64) int64 {
		switch t.Kind {
		case VarTerm:
			return env[t.Name]
		case NumberTerm:
			return int64(t.Num)
		}
		return sym(t.Name)
	}
	var match func(r *Rule, i int, env map[string]int64, emit func(map[string]int64))
	match = func(r *Rule, i int, env map[string]int64, emit func(map[string]int64)) {
		if i < len(r.Body) && r.Body[i].Negated {
			match(r, i+1, env, emit)
			return
		}
		if i < len(r.Body) {
			a := r.Body[i]
		tuples:
			for _, t := range rels[a.Rel] {
				e := maps.Clone(env)
				for k, arg := range a.Args {
					switch arg.Kind {
					case WildcardTerm:
					case VarTerm:
						if v, ok := e[arg.Name]; !ok {
							e[arg.Name] = t[k]
						} else if v != t[k] {
							continue tuples
						}
					default:
						if termVal(arg, e) != t[k] {
							continue tuples
						}
					}
				}
				match(r, i+1, e, emit)
			}
			return
		}
		for _, a := range r.Body {
			if !a.Negated {
				continue
			}
		neg:
			for _, t := range rels[a.Rel] {
				for k, arg := range a.Args {
					if arg.Kind != WildcardTerm && termVal(arg, env) != t[k] {
						continue neg
					}
				}
				return // a tuple matches the negated atom
			}
		}
		for _, c := range r.Comparisons {
			l, rv := termVal(c.Left, env), termVal(c.Right, env)
			if !([...]bool{OpEq: l == rv, OpNe: l != rv, OpLt: l < rv, OpLe: l <= rv, OpGt: l > rv, OpGe: l >= rv}[c.Op]) {
				return
			}
		}
		emit(env)
	}
	for _, s := range prog.Strata {
		for changed := true; changed; {
			changed = false
			for _, r := range s.Rules {
				var derived [][]int64
				match(r, 0, map[string]int64{}, func(env map[string]int64) {
					var t []int64
					for _, a := range r.Head.Args {
						t = append(t, termVal(a, env))
					}
					derived = append(derived, t)
				})
				for _, t := range derived {
					k := fmt.Sprint(t)
					if _, ok := rels[r.Head.Rel][k]; !ok {
						rels[r.Head.Rel][k] = t
						changed = true
					}
				}
			}
		}
	}
	out := map[string][]string{}
	for rel, tuples := range rels {
		var lines []string
		for _, t := range tuples {
			var parts []string
			for i, v := range t {
				if rel.Attrs[i].Type.Kind == SymbolKind {
					parts = append(parts, names[v])
				} else {
					parts = append(parts, strconv.FormatInt(v, 10))
				}
			}
			lines = append(lines, strings.Join(parts, "\t"))
		}
		slices.Sort(lines)
		out[rel.Name] = lines
	}
	return out
}
