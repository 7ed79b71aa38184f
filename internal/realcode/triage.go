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
//	module <TAB> key <TAB> where <TAB> true <TAB> witness <TAB> note
//	module <TAB> key <TAB> where <TAB> false <TAB> class <TAB> the missing fact
//
// where (Location.Where) is for the reader; verdicts match locations by
// key. Blank lines and lines starting with # are comments.
type Verdict struct {
	Module, Key string
	Where       string
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
		if len(f) != 6 {
			return nil, bad("%d tab-separated fields, want 6 (module, key, where, true|false, witness|class, note)", len(f))
		}
		v := Verdict{Module: f[0], Key: f[1], Where: f[2], Note: f[5], Line: line}
		if v.Module == "" || v.Key == "" || v.Where == "" {
			return nil, bad("empty module, key or where")
		}
		switch f[3] {
		case "true":
			v.True, v.Witness = true, f[4]
			if v.Witness == "" {
				return nil, bad("a true race needs a witness")
			}
		case "false":
			c, err := strconv.Atoi(f[4])
			if err != nil || Classes[c] == "" {
				return nil, bad("class %q: want a number from 1 to %d", f[4], len(Classes))
			}
			v.Class = c
			if v.Note == "" {
				return nil, bad("a false location needs the missing fact")
			}
		default:
			return nil, bad("verdict %q: want true or false", f[3])
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
	Moved                 []Move     // verdicts whose location is now reported with another Where
	ByClass               map[int]int
}

// A Move is a verdict whose key is reported with a Where other than its
// own: the location's lines moved, or its id now names another location.
type Move struct {
	Verdict Verdict
	Where   string // as reported now
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
		if !ok {
			j.Missing = append(j.Missing, l)
			continue
		}
		delete(byKey, l.Key)
		if v.Where != l.Where {
			j.Moved = append(j.Moved, Move{v, l.Where})
		}
		if v.True {
			j.True++
		} else {
			j.False++
			j.ByClass[v.Class]++
		}
	}
	for _, v := range byKey {
		j.Stale = append(j.Stale, v)
	}
	slices.SortFunc(j.Stale, func(a, b Verdict) int { return a.Line - b.Line })
	return j
}
