package reports

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteJSON writes the report as indented JSON, one race at a time.
func (rep *Report) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n  \"races\": [")
	n := 0
	err := rep.each(func(_ *group, _ int, race Race) error {
		data, err := json.MarshalIndent(race, "    ", "  ")
		if err != nil {
			return err
		}
		if n > 0 {
			bw.WriteString(",")
		}
		n++
		bw.WriteString("\n    ")
		_, err = bw.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]")
	if len(rep.Errors) > 0 {
		if err := writeMember(bw, "errors", rep.Errors); err != nil {
			return err
		}
	}
	stats := rep.Stats
	if !rep.opts.Timings {
		stats.Seconds = nil
		if stats.Demand != nil {
			d := *stats.Demand
			d.Seconds = nil
			stats.Demand = &d
		}
	}
	if err := writeMember(bw, "stats", stats); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// writeMember writes ",\n  \"name\": value" as json.Encoder would indent it.
func writeMember(w *bufio.Writer, name string, v any) error {
	data, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, ",\n  %q: ", name)
	_, err = w.Write(data)
	return err
}

// each describes the races location by location, the first
// Options.MaxPaths of each location with call paths, and calls fn with
// each; the description is dropped after fn returns.
func (rep *Report) each(fn func(g *group, i int, race Race) error) error {
	for gi := range rep.groups {
		g := &rep.groups[gi]
		for i := range g.races {
			if err := fn(g, i, rep.b.race(g, &g.races[i], rep.withPaths(i))); err != nil {
				return err
			}
		}
	}
	return nil
}

// withPaths says whether the i-th race of a location is shown with its
// call paths.
func (rep *Report) withPaths(i int) bool { return rep.opts.MaxPaths == 0 || i < rep.opts.MaxPaths }

// WriteText writes the races location by location, each location once
// with its access pairs under it (Chord's by-field view). A pair with call
// paths reads the way the Go race detector prints a race, so that Go
// users recognize it: the two accesses with their goroutines and call
// paths (innermost frame first); the pairs past Options.MaxPaths take a
// line each.
func (rep *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	err := rep.each(func(g *group, i int, race Race) error {
		if i == 0 {
			fmt.Fprintf(bw, "==================\nWARNING: DATA RACE (static)\nLocation: %s\n  location %s, %s\n",
				race.Location.Desc, race.Location.ID, count(len(g.races), "access pair"))
		}
		if !rep.withPaths(i) {
			if i == rep.opts.MaxPaths {
				fmt.Fprintf(bw, "\n%s without call paths (-paths 0 shows them):\n", count(len(g.races)-i, "more access pair"))
			}
			a, b := race.Accesses[0], race.Accesses[1]
			prev := opName(b, true)
			_, err := fmt.Fprintf(bw, "  %s at %s, %s at %s (race %s)\n", opName(a, false), a.Pos, strings.ToLower(prev[:1])+prev[1:], b.Pos, race.ID)
			return err
		}
		if i > 0 {
			bw.WriteString("------------------\n")
		}
		for k, a := range race.Accesses {
			fmt.Fprintf(bw, "\n%s at %s by %s:\n", opName(a, k == 1), a.Pos, describe(a.Goroutine))
			for j := len(a.Path) - 1; j >= 0; j-- {
				fmt.Fprintf(bw, "  %s()\n      %s\n", a.Path[j].Func, a.Path[j].Pos)
			}
			if len(a.Locks) > 0 {
				fmt.Fprintf(bw, "  locks held: %s\n", strings.Join(a.Locks, ", "))
			}
		}
		_, err := fmt.Fprintf(bw, "\nRace %s\n", race.ID)
		return err
	})
	if err != nil {
		return err
	}
	if len(rep.groups) > 0 {
		bw.WriteString("==================\n")
	}
	fmt.Fprintf(bw, "chordgo: %s, %s\n", count(rep.Stats.Locations, "location"), count(rep.Stats.Pairs.Ultimate, "access pair"))
	return bw.Flush()
}

// opName names an access's operation as the race detector does: "Write",
// "Atomic read", "Previous write" for the earlier access.
func opName(a Access, previous bool) string {
	op := strings.ToUpper(a.Op[:1]) + a.Op[1:]
	if a.Atomic {
		op = "Atomic " + a.Op
	}
	if previous {
		op = "Previous " + strings.ToLower(op[:1]) + op[1:]
	}
	return op
}

// count writes n and the noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func describe(g Goroutine) string {
	switch g.Kind {
	case "root":
		return "root " + g.Entry
	case "init":
		return "init " + g.Entry
	}
	s := "goroutine running " + g.Entry
	if len(g.Spawn) > 0 {
		s += ", started at " + strings.Join(g.Spawn, " <- ")
	}
	return s
}

// WriteStats writes the funnel's counts (Naik's Table 2.4) and times.
func (rep *Report) WriteStats(w io.Writer) error {
	p := rep.Stats.Pairs
	pct := func(before, after int) string {
		if before == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(before-after)/float64(before))
	}
	_, err := fmt.Fprintf(w, "pairs: original %d; removed by aliasing %s, escaping %s, parallel %s, unlocked %s; ultimate %d\n",
		p.Original, pct(p.Original, p.Aliasing), pct(p.Aliasing, p.Escaping), pct(p.Escaping, p.Parallel), pct(p.Parallel, p.Unlocked), p.Ultimate)
	if err != nil {
		return err
	}
	if d := rep.Stats.Demand; d != nil {
		for i := range d.Iterations {
			if _, err := fmt.Fprintf(w, "demand iteration %d: contexts %d (estimate %s), race pairs %d, %.3fs\n",
				i+1, d.Contexts[i], d.Estimates[i], d.RacePairs[i], d.Seconds[i]); err != nil {
				return err
			}
		}
		ks := slices.Sorted(maps.Keys(d.SitesByK))
		var parts []string
		for _, k := range ks {
			parts = append(parts, fmt.Sprintf("k=%s: %d", k, d.SitesByK[k]))
		}
		if _, err := fmt.Fprintf(w, "sites by k: %s\n", strings.Join(parts, ", ")); err != nil {
			return err
		}
		for _, c := range d.Capped {
			if _, err := fmt.Fprintf(w, "k not raised (-max-contexts): %s\n", c); err != nil {
				return err
			}
		}
	}
	for _, name := range []string{"load", "ssa", "facts", "pointsto-ci", "goroutines", "accesses", "aliasing", "escaping", "parallel", "unlocked", "report"} {
		if s, ok := rep.Stats.Seconds[name]; ok {
			if _, err := fmt.Fprintf(w, "time %-12s %7.3fs\n", name, s); err != nil {
				return err
			}
		}
	}
	return nil
}
