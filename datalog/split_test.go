package datalog

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestSplit checks that evaluating a plan's first scan on several cores
// (runSplit) inserts the same tuples in the same order, with the same
// statistics, as one core: on the random programs of TestDifferential,
// every plan split down to one tuple a chunk, and on Andersen's points-to
// at the size where exec splits; with rounds sized by what they derive,
// and with one chunk a round (a buffer bound no chunk stays under).
func TestSplit(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	defaultMin, defaultBuffer := splitMin, splitBuffer
	defer func() { splitMin, splitBuffer = defaultMin, defaultBuffer }()
	type input struct {
		name string
		prog *Program
		db   func() *Database
	}
	var inputs []input
	for _, mode := range []domainMode{smallDomain, largeDomain, negativeDomain, mixedDomain} {
		for seed := range uint64(50) {
			g := genProgram(rand.New(rand.NewPCG(seed, uint64(mode))), mode)
			prog := mustParse(t, g.text())
			inputs = append(inputs, input{fmt.Sprint(mode, "/", seed), prog, func() *Database { return g.database(t, prog) }})
		}
	}
	andersen := mustParse(t, andersenProgram)
	inputs = append(inputs, input{"andersen", andersen, func() *Database {
		db := NewDatabase(andersen)
		for rel, tuples := range andersenFacts(20000, 2000, 20) {
			for _, tu := range tuples {
				if err := db.Add(rel, tu...); err != nil {
					t.Fatal(err)
				}
			}
		}
		return db
	}})
	for _, in := range inputs {
		run := func(min uint32, buffer int) (*Database, *Stats) {
			splitMin, splitBuffer = min, buffer
			db := in.db()
			stats, err := db.Run()
			if err != nil {
				t.Fatalf("%s: %v", in.name, err)
			}
			return db, stats
		}
		small := uint32(1)
		if in.name == "andersen" {
			small = defaultMin
		}
		one, oneStats := run(math.MaxUint32, defaultBuffer)
		for _, buffer := range []int{defaultBuffer, 1} {
			split, splitStats := run(small, buffer)
			for _, r := range in.prog.Relations {
				if got, want := split.Flat(r.Name), one.Flat(r.Name); !slices.Equal(got, want) {
					t.Errorf("%s, buffer %d: %s: split evaluation gave %d values, one core %d, or another order", in.name, buffer, r.Name, len(got), len(want))
				}
			}
			for i, rs := range splitStats.Rules {
				if rs.Tuples != oneStats.Rules[i].Tuples {
					t.Errorf("%s, buffer %d: %s: %d tuples derived split, %d on one core", in.name, buffer, rs.Rule, rs.Tuples, oneStats.Rules[i].Tuples)
				}
			}
		}
	}
}

// TestSplittable checks which plans exec shares out: a recursive variant
// that scans its delta, and not one that tests its own head relation for
// a whole tuple (it sees what it inserted itself, a worker would not) nor
// one whose first scan stops at its first match.
func TestSplittable(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	defer func(old uint32) { splitMin = old }(splitMin)
	splitMin = 1
	prog := mustParse(t, `
.decl edge(x:number, y:number)
.decl path(x:number, y:number)
.decl loop(x:number, y:number)
.decl any(x:number)
path(x, z) :- path(x, y), edge(y, z).
loop(x, y) :- loop(y, x), edge(x, y), loop(x, x).
any(1) :- edge(_, _).
`)
	for _, tc := range []struct {
		rule, delta int
		want        bool
	}{
		{0, 0, true},
		{1, 0, false},
		{2, -1, false},
	} {
		db := NewDatabase(prog)
		for i := range uint32(10) {
			if err := db.Add("edge", i, i+1); err != nil {
				t.Fatal(err)
			}
		}
		for _, rel := range []string{"path", "loop"} {
			if err := db.Add(rel, 1, 1); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.prepareFirstRun(); err != nil {
			t.Fatal(err)
		}
		p := db.compile(prog.Rules[tc.rule], tc.delta, &RuleStats{})
		if _, _, got := p.splittable(db.rg); got != tc.want {
			t.Errorf("%s (delta atom %d): splittable = %v, want %v", prog.Rules[tc.rule], tc.delta, got, tc.want)
		}
	}
}
