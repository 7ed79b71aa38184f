package datalog

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGolden runs each testdata/golden/<name>/program.dl on the .facts files
// beside it and compares every .output relation with <relation>.csv. The
// expected files were worked out by hand (see the programs' comments). Output
// order is derivation order, so lines are compared as sorted sets.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/golden/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 4 {
		t.Fatalf("found %d golden directories", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			file := filepath.Join(dir, "program.dl")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := Parse(file, src)
			if err != nil {
				t.Fatal(err)
			}
			db := NewDatabase(prog)
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
			csvs, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
			outputs := 0
			for _, rel := range prog.Relations {
				if !rel.Output {
					continue
				}
				outputs++
				want, err := os.ReadFile(filepath.Join(dir, rel.Name+".csv"))
				if err != nil {
					t.Errorf("no expected output for %s: %v", rel.Name, err)
					continue
				}
				got, err := os.ReadFile(filepath.Join(out, rel.Name+".csv"))
				if err != nil {
					t.Fatal(err)
				}
				g, w := sortedLines(string(got)), sortedLines(string(want))
				if !slices.Equal(g, w) {
					t.Errorf("%s:\n got %q\nwant %q", rel.Name, g, w)
				}
				if db.Len(rel.Name) != len(w) {
					t.Errorf("Len(%s) = %d, want %d", rel.Name, db.Len(rel.Name), len(w))
				}
			}
			if outputs != len(csvs) {
				t.Errorf("%d .csv files for %d output relations", len(csvs), outputs)
			}
		})
	}
}

func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(l) == 1 && l[0] == "" {
		return nil
	}
	slices.Sort(l)
	return l
}
