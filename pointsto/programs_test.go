package pointsto

import (
	"strings"
	"testing"
)

// Each program is analyzed alone: its run reaches its own roots' code and
// none of another program's, though both use one library.
func TestAnalyzerProgram(t *testing.T) {
	fx := loadFixture(t, Config{Patterns: []string{"./testdata/races/programs_share_lib/..."}, Tests: true})
	whole, err := NewAnalyzer(fx.facts)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		program      int
		reaches, not string // a function of the program's test package, and of the other's
	}{
		{0, "programs_share_lib/a.TestA$1", "programs_share_lib/b.TestB$1"},
		{1, "programs_share_lib/b.TestB$1", "programs_share_lib/a.TestA$1"},
	}
	if fx.prog.NumPrograms != len(tests) {
		t.Fatalf("%d programs, want %d", fx.prog.NumPrograms, len(tests))
	}
	for _, tt := range tests {
		a, err := whole.Program(tt.program)
		if err != nil {
			t.Fatal(err)
		}
		if a.Facts.Whole() != fx.facts {
			t.Errorf("program %d: Whole is not the facts it was restricted from", tt.program)
		}
		for _, r := range a.Facts.Prog.Roots {
			if r.Program != tt.program {
				t.Errorf("program %d has root %s of program %d", tt.program, r.Func, r.Program)
			}
		}
		res, err := a.Run(NewSigma())
		if err != nil {
			t.Fatal(err)
		}
		reached := map[string]bool{}
		for tu := range res.Tuples("reach") {
			reached[a.Facts.Func(tu[1]).String()] = true
		}
		has := func(suffix string) bool {
			for name := range reached {
				if strings.HasSuffix(name, suffix) {
					return true
				}
			}
			return false
		}
		if !has(tt.reaches) {
			t.Errorf("program %d does not reach %s", tt.program, tt.reaches)
		}
		if has(tt.not) {
			t.Errorf("program %d reaches %s", tt.program, tt.not)
		}
		if n := a.Facts.Len("entry"); n == 0 || n >= fx.facts.Len("entry") {
			t.Errorf("program %d: %d entries of %d", tt.program, n, fx.facts.Len("entry"))
		}
	}
	if _, err := whole.Program(len(tests)); err == nil {
		t.Errorf("Program(%d) of %d programs: no error", len(tests), len(tests))
	}
}
