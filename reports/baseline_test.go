package reports

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBaseline writes the baseline of twoLocations, reads it back, and
// leaves its races out of the report of a program with one race more.
func TestBaseline(t *testing.T) {
	dir := writeModule(t, twoLocations)
	r, res := analyze(t, dir)
	var out bytes.Buffer
	if err := Build(r, res, Options{Root: dir}).WriteBaseline(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	races := lines[strings.Count(baselineHeader, "\n"):]
	ids, _ := raceIDs(t, twoLocations)
	if len(races) != len(ids) {
		t.Fatalf("%d races in the baseline, want %d:\n%s", len(races), len(ids), out.String())
	}
	line := regexp.MustCompile(`^[0-9a-f]{16}\tglobal prog\.[ab]: write at main\.go:\d+:\d+ in prog\.main(\$1)?, write at main\.go:\d+:\d+ in prog\.main(\$1)?$`)
	for i, l := range races {
		if !line.MatchString(l) {
			t.Errorf("baseline line %q does not match %s", l, line)
		}
		if i > 0 && races[i-1] >= l {
			t.Errorf("baseline lines not sorted: %q before %q", races[i-1], l)
		}
	}
	name := filepath.Join(t.TempDir(), "baseline")
	if err := os.WriteFile(name, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	bl, err := ReadBaseline(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, race, _ := strings.Cut(id, " "); !bl[race] {
			t.Errorf("race %s not in the baseline read back: %v", race, bl)
		}
	}
	// One more race, on c; the others' lines move.
	src := strings.Replace(twoLocations, "var a, b int", "var a, b, c int\n", 1)
	src = strings.Replace(src, "\tb = 2\n", "\tb = 2\n\tc = 1\n", 1)
	src = strings.Replace(src, "\t\tb = 1\n", "\t\tb = 1\n\t\tc = 2\n", 1)
	r, res = analyze(t, writeModule(t, src))
	rep := Build(r, res, Options{})
	rep.OmitBaseline(bl)
	var text strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if st := rep.Stats; st.Reported != 1 || st.Filtered.Baseline != 3 || !strings.Contains(text.String(), "Location: global prog.c\n") {
		t.Errorf("reported %d, in the baseline %d; want 1 (c) and 3:\n%s", st.Reported, st.Filtered.Baseline, text.String())
	}
}

// TestReadBaseline checks what a baseline file may hold and the errors,
// which name the file and line.
func TestReadBaseline(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		ids        int
		err        string // regexp
	}{
		{"empty", "", 0, ""},
		{"header only", baselineHeader, 0, ""},
		{"ids without descriptions", "0123456789abcdef\n\n  # a comment\nfedcba9876543210  \n", 2, ""},
		{"repeated id", "0123456789abcdef\tone\n0123456789abcdef\tone again\n", 1, ""},
		{"short id", "# ok\n0123456789abcde\tdesc\n", 0, `^\S+/baseline:2: want a race id \(16 hex digits\) at the start of the line, found "0123456789abcde"$`},
		{"upper case", "0123456789ABCDEF\n", 0, `baseline:1: want a race id`},
		{"long line cut", strings.Repeat("x", 100) + "\n", 0, `found "x{40}\.\.\."$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "baseline")
			if err := os.WriteFile(name, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			bl, err := ReadBaseline(name)
			if wantError(t, err, tc.err) && len(bl) != tc.ids {
				t.Errorf("%d ids, want %d: %v", len(bl), tc.ids, bl)
			}
		})
	}
}

// wantError checks err against the regexp want ("": no error) and
// reports whether there is a result to check.
func wantError(t *testing.T, err error, want string) bool {
	t.Helper()
	switch {
	case want != "":
		if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
			t.Errorf("error %v, want one matching %s", err, want)
		}
		return false
	case err != nil:
		t.Error(err)
		return false
	}
	return true
}
