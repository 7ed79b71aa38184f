package reports

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// baselineHeader starts a baseline file and says what it is.
const baselineHeader = `# chordgo baseline, written by chordgo check -write-baseline: the races of an
# earlier report. chordgo check -baseline FILE reports only the races whose id
# is not listed here. One race a line: its id (16 hex digits), a tab, and what
# the race is, for people (files relative to the module root). Blank lines and
# lines starting with # are ignored.
`

var raceIDPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)

// A Baseline is the set of race ids of an earlier report.
type Baseline map[string]bool

// ReadBaseline reads a file that WriteBaseline wrote (or a person edited):
// a line that does not start with a race id is an error naming it.
func ReadBaseline(name string) (Baseline, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	bl := Baseline{}
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, _, _ := strings.Cut(line, "\t")
		id = strings.TrimSpace(id)
		if !raceIDPattern.MatchString(id) {
			return nil, fmt.Errorf("%s:%d: want a race id (16 hex digits) at the start of the line, found %q", name, n, shortText(id))
		}
		bl[id] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return bl, nil
}

// shortText cuts s to a length an error message can quote.
func shortText(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

// WriteBaseline writes the ids of the report's races, sorted, each with
// what the race is: its location and its two accesses.
func (rep *Report) WriteBaseline(w io.Writer) error {
	var lines []string
	err := rep.each(func(g *group, _ int, race Race) error {
		var sides [2]string
		for k, a := range race.Accesses {
			sides[k] = fmt.Sprintf("%s at %s in %s", a.Op, rep.relative(a.Pos), a.Func)
		}
		lines = append(lines, fmt.Sprintf("%s\t%s: %s, %s\n", race.ID, rep.relative(g.loc.Desc), sides[0], sides[1]))
		return nil
	})
	if err != nil {
		return err
	}
	slices.Sort(lines)
	bw := bufio.NewWriter(w)
	bw.WriteString(baselineHeader)
	for _, line := range slices.Compact(lines) {
		bw.WriteString(line)
	}
	return bw.Flush()
}

// relative names the files under Options.Root in s relative to it.
func (rep *Report) relative(s string) string {
	if rep.opts.Root == "" {
		return s
	}
	return strings.ReplaceAll(s, filepath.Clean(rep.opts.Root)+string(filepath.Separator), "")
}

// OmitBaseline takes the races whose id is in bl out of the report, and
// counts them in Stats.Filtered.Baseline.
func (rep *Report) OmitBaseline(bl Baseline) {
	rep.Stats.Filtered.Baseline += rep.omit(&rep.filtered.Baseline, func(e *entry) bool { return bl[rep.raceID(e)] })
}
