package realcode

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Classes are the reasons a reported location is false, numbered as in
// the real-code precision issue (issue 11).
var Classes = map[int]string{
	1:  "tests of different packages are one program",
	2:  "objects of different tests merged",
	3:  "a lock held on both sides is lost through a helper",
	4:  "happens-before missed in a common shape",
	5:  "interface calls that resolve to almost everything",
	6:  "elements of an array or slice written one per goroutine",
	7:  "locks that are not sync.Mutex",
	8:  "one function, several goroutines, different arguments",
	9:  "positions",
	10: "roots and call paths that cannot happen",
}

// A Verdict is one line of the triage file:
//
//	module <TAB> location key <TAB> true <TAB> witness <TAB> note
//	module <TAB> location key <TAB> false <TAB> class <TAB> the missing fact
//
// Blank lines and lines starting with # are comments.
type Verdict struct {
	Module, Key string
	True        bool
	Witness     string // for a true race: a test or program go test -race reports it on
	Class       int    // for a false one: a key of Classes
	Note        string // for a false one: the fact the analysis misses
	Line        int
}

// ReadTriage parses a triage file; name is used in errors.
func ReadTriage(r io.Reader, name string) ([]Verdict, error) {
	var vs []Verdict
	seen := map[[2]string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		f := strings.Split(text, "\t")
		if len(f) != 5 {
			return nil, bad("%d tab-separated fields, want 5 (module, location, true|false, witness|class, note)", len(f))
		}
		v := Verdict{Module: f[0], Key: f[1], Note: f[4], Line: line}
		if v.Module == "" || v.Key == "" {
			return nil, bad("empty module or location")
		}
		switch f[2] {
		case "true":
			v.True, v.Witness = true, f[3]
			if v.Witness == "" {
				return nil, bad("a true race needs a witness")
			}
		case "false":
			c, err := strconv.Atoi(f[3])
			if err != nil || Classes[c] == "" {
				return nil, bad("class %q: want a number from 1 to %d", f[3], len(Classes))
			}
			v.Class = c
			if v.Note == "" {
				return nil, bad("a false location needs the missing fact")
			}
		default:
			return nil, bad("verdict %q: want true or false", f[2])
		}
		k := [2]string{v.Module, v.Key}
		if prev, ok := seen[k]; ok {
			return nil, bad("second verdict for %s %s (first on line %d)", v.Module, v.Key, prev)
		}
		seen[k] = line
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return vs, nil
}

// A Judgement is the triage of one module's reported locations.
type Judgement struct {
	Reported, True, False int
	Missing               []Location // reported, with no verdict
	Stale                 []Verdict  // verdicts of the module that match no reported location
	ByClass               map[int]int
}

// Precision is true / reported locations; 1 when nothing is reported.
func (j *Judgement) Precision() float64 {
	if j.Reported == 0 {
		return 1
	}
	return float64(j.True) / float64(j.Reported)
}

// Judge matches the locations reported on module against the verdicts.
func Judge(module string, locs []Location, vs []Verdict) *Judgement {
	j := &Judgement{Reported: len(locs), ByClass: map[int]int{}}
	byKey := map[string]Verdict{}
	for _, v := range vs {
		if v.Module == module {
			byKey[v.Key] = v
		}
	}
	for _, l := range locs {
		v, ok := byKey[l.Key]
		switch {
		case !ok:
			j.Missing = append(j.Missing, l)
		case v.True:
			j.True++
		default:
			j.False++
			j.ByClass[v.Class]++
		}
		delete(byKey, l.Key)
	}
	for _, v := range byKey {
		j.Stale = append(j.Stale, v)
	}
	slices.SortFunc(j.Stale, func(a, b Verdict) int { return a.Line - b.Line })
	return j
}
