package realcode

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// The part of chordgo check's JSON (reports/doc.go) the harness reads.
type jsonReport struct {
	Races []struct {
		Location jsonLocation `json:"location"`
		Accesses [2]struct {
			Pos string `json:"pos"`
			Op  string `json:"op"`
		} `json:"accesses"`
	} `json:"races"`
	Errors []string `json:"errors"`
	Stats  struct {
		Seconds map[string]float64 `json:"seconds"`
		Demand  *struct {
			Iterations int `json:"iterations"`
		} `json:"demand"`
	} `json:"stats"`
}

type jsonLocation struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Field  string `json:"field"`
	Global string `json:"global"`
	Object string `json:"object"`
	Type   string `json:"type"`
}

// An Outcome is a parsed report: its races grouped by location.
type Outcome struct {
	Races     int
	Locations []Location // sorted by Key
	Errors    []string   // packages that failed to load
	Seconds   map[string]float64
	Demand    int // demand-loop iterations, 0 when the report has none
}

// A Location is one distinct memory location of the report, with the
// access pairs that race on it.
type Location struct {
	// Key is the location's id in the report (stable when lines move),
	// or Where when the report has none.
	Key string
	// Where names it for a reader: "kind field-or-global [type] @site".
	Where string
	Pairs []string // "write a.go:1:2 / read b.go:3:4", paths relative to the module root
}

// Prefixes maps absolute directory prefixes to the names that replace
// them in keys and positions, so that they do not depend on where the
// corpus was put or the toolchain installed: the module root becomes "",
// the module cache "$GOMODCACHE/", GOROOT "$GOROOT/".
type Prefixes []struct{ Dir, Name string }

func (ps Prefixes) rel(path string) string {
	for _, p := range ps {
		if rest, ok := strings.CutPrefix(path, p.Dir+string(filepath.Separator)); ok {
			return p.Name + filepath.ToSlash(rest)
		}
	}
	return path
}

// ParseReport reads the JSON of chordgo check -json. A location's key is
// the id the report gives it, or else its Where.
func ParseReport(data []byte, ps Prefixes) (*Outcome, error) {
	var r jsonReport
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("chordgo check -json output: %v", err)
	}
	o := &Outcome{Races: len(r.Races), Errors: r.Errors, Seconds: r.Stats.Seconds}
	if r.Stats.Demand != nil {
		o.Demand = r.Stats.Demand.Iterations
	}
	byKey := map[string]*Location{}
	for _, race := range r.Races {
		where := locationWhere(race.Location, ps)
		key := cmp.Or(race.Location.ID, where)
		loc := byKey[key]
		if loc == nil {
			loc = &Location{Key: key, Where: where}
			byKey[key] = loc
		}
		a, b := race.Accesses[0], race.Accesses[1]
		loc.Pairs = append(loc.Pairs, fmt.Sprintf("%s %s / %s %s", a.Op, ps.rel(a.Pos), b.Op, ps.rel(b.Pos)))
	}
	for _, loc := range byKey {
		o.Locations = append(o.Locations, *loc)
	}
	slices.SortFunc(o.Locations, func(a, b Location) int { return strings.Compare(a.Key, b.Key) })
	return o, nil
}

// locationWhere names a location by its fields, without its description,
// which repeats them in words: "kind field-or-global [type] @site".
func locationWhere(l jsonLocation, ps Prefixes) string {
	parts := []string{l.Kind}
	for _, s := range []string{l.Field, l.Global} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if l.Type != "" {
		parts = append(parts, "["+l.Type+"]")
	}
	if l.Object != "" {
		parts = append(parts, "@"+ps.rel(l.Object))
	}
	return strings.Join(parts, " ")
}
