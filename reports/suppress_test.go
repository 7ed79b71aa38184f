package reports

import (
	"slices"
	"strings"
	"testing"
)

// TestSuppress edits twoLocations (a: main's write on line 11 against the
// goroutine's on lines 7 and 8; b: line 12 against line 9) with
// //chordgo:ignore comments in and around the accesses' lines.
func TestSuppress(t *testing.T) {
	for _, tc := range []struct {
		name       string
		old, new   string
		suppressed int
		unused     []int  // lines of the suppressions that match no race
		err        string // regexp
	}{
		{name: "none", suppressed: 0},
		{name: "line above", old: "\tb = 2\n", new: "\t//chordgo:ignore b is a counter nobody reads\n\tb = 2\n", suppressed: 1},
		{name: "same line", old: "\t\tb = 1\n", new: "\t\tb = 1 //chordgo:ignore b is a counter nobody reads\n", suppressed: 1},
		{name: "tab before the reason", old: "\t\tb = 1\n", new: "\t\tb = 1 //chordgo:ignore\tb is a counter\n", suppressed: 1},
		// Not about line 12's b = 2.
		{name: "one access in several races", old: "\ta = 3\n", new: "\ta = 3 //chordgo:ignore last writer wins\n", suppressed: 2},
		{name: "above and at the end of the line", old: "\tb = 2\n", new: "\t//chordgo:ignore one\n\tb = 2 //chordgo:ignore two\n", suppressed: 1},
		{name: "two lines above", old: "\tb = 2\n", new: "\t//chordgo:ignore too far\n\n\tb = 2\n", unused: []int{12}},
		{name: "both accesses", old: "\t\tb = 1\n\t}()\n\ta = 3\n\tb = 2\n",
			new: "\t\tb = 1 //chordgo:ignore one\n\t}()\n\ta = 3\n\tb = 2 //chordgo:ignore two\n", suppressed: 1},
		{name: "space after //", old: "\tb = 2\n", new: "\t// chordgo:ignore not a directive\n\tb = 2\n"},
		{name: "block comment", old: "\tb = 2\n", new: "\t/*chordgo:ignore not a directive*/\n\tb = 2\n"},
		{name: "no reason", old: "\tb = 2\n", new: "\t//chordgo:ignore  \n\tb = 2\n",
			err: `^/\S+/main.go:12:2: //chordgo:ignore without a reason; say why the race is harmless: //chordgo:ignore <reason>$`},
		{name: "unknown directive", old: "\tb = 2\n", new: "\t//chordgo:ignored b is a counter\n\tb = 2\n",
			err: `^/\S+/main.go:12:2: unknown directive //chordgo:ignored; chordgo knows //chordgo:ignore <reason>$`},
		{name: "two errors", old: "\t\tb = 1\n\t}()\n\ta = 3\n\tb = 2\n",
			new: "\t\tb = 1 //chordgo:ignore\n\t}()\n\ta = 3\n\tb = 2 //chordgo:\n",
			err: `^2 wrong //chordgo: comments:\n\t/\S+/main.go:9:9: //chordgo:ignore without a reason; .*\n\t/\S+/main.go:12:8: unknown directive //chordgo:; .*$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(twoLocations, tc.old, tc.new, 1)
			if src == twoLocations && tc.old != "" {
				t.Fatalf("edit %q not applied", tc.old)
			}
			r, res := analyze(t, writeModule(t, src))
			s, err := ReadSuppressions(r.Facts.Prog)
			if !wantError(t, err, tc.err) {
				return
			}
			rep := Build(r, res, Options{})
			rep.Suppress(s)
			st := rep.Stats
			if st.Filtered.Suppressed != tc.suppressed || st.Reported != 3-tc.suppressed || st.Pairs.Ultimate != 3 {
				t.Errorf("suppressed %d, reported %d, ultimate %d; want %d, %d, 3", st.Filtered.Suppressed, st.Reported, st.Pairs.Ultimate, tc.suppressed, 3-tc.suppressed)
			}
			var unused []int
			for _, pos := range s.Unused() {
				line, _ := lineColumn(t, pos)
				unused = append(unused, line)
			}
			if !slices.Equal(unused, tc.unused) {
				t.Errorf("unused suppressions on lines %v, want %v", unused, tc.unused)
			}
			var out strings.Builder
			if err := rep.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(out.String(), "\nRace "); n != st.Reported {
				t.Errorf("%d races written, want %d:\n%s", n, st.Reported, out.String())
			}
		})
	}
}
