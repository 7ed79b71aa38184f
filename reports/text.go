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
	bw.WriteString("{\n  \"races\": ")
	if err := rep.writeArray(bw, "    ", func(race Race) any { return race }); err != nil {
		return err
	}
	if len(rep.Errors) > 0 {
		if err := writeMember(bw, "errors", rep.Errors); err != nil {
			return err
		}
	}
	stats := rep.Stats
	stats.Programs = slices.Clone(rep.programStats())
	if rep.opts.Shard {
		stats.FilteredIDs = &rep.filtered
	}
	if !rep.opts.Timings {
		stats.Seconds = nil
		stats.Demand = withoutSeconds(stats.Demand)
		for i := range stats.Programs {
			stats.Programs[i].Demand = withoutSeconds(stats.Programs[i].Demand)
		}
	}
	if err := writeMember(bw, "stats", stats); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// withoutSeconds returns d without its times.
func withoutSeconds(d *Demand) *Demand {
	if d == nil {
		return nil
	}
	out := *d
	out.Seconds = nil
	return &out
}

// writeArray writes the races as a JSON array laid out as json.Indent
// would, its elements indented by indent, each race as value makes it,
// one at a time.
func (rep *Report) writeArray(bw *bufio.Writer, indent string, value func(Race) any) error {
	bw.WriteString("[")
	n := 0
	err := rep.each(func(_ *group, _ int, race Race) error {
		data, err := json.MarshalIndent(value(race), indent, "  ")
		if err != nil {
			return err
		}
		if n > 0 {
			bw.WriteString(",")
		}
		n++
		bw.WriteString("\n" + indent)
		_, err = bw.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		bw.WriteString("\n" + indent[2:])
	}
	bw.WriteString("]")
	return nil
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
			if err := fn(g, i, rep.describe(g, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// describe describes the i-th race of location g, with call paths if
// withPaths(i).
func (rep *Report) describe(g *group, i int) Race {
	e := &g.races[i]
	if e.desc == nil {
		return rep.b.race(g, e, rep.withPaths(i))
	}
	race := *e.desc
	if !rep.withPaths(i) {
		for k := range race.Accesses {
			race.Accesses[k].Path = []Frame{}
		}
	}
	return race
}

// Each describes the races one at a time, location by location in the
// order WriteText and WriteJSON write them, and calls fn with each, its
// index among its location's races and their number; the first
// Options.MaxPaths of a location come with call paths.
func (rep *Report) Each(fn func(race Race, i, n int) error) error {
	return rep.each(func(g *group, i int, race Race) error { return fn(race, i, len(g.races)) })
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
			note := ""
			if rep.note != nil {
				note = ": " + rep.note(race.ID)
			}
			_, err := fmt.Fprintf(bw, "  %s at %s, %s at %s (race %s)%s\n", opName(a, false), a.Pos, strings.ToLower(prev[:1])+prev[1:], b.Pos, race.ID, note)
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
		if err == nil && rep.note != nil {
			_, err = fmt.Fprintf(bw, "%s\n", rep.note(race.ID))
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(rep.groups) > 0 {
		bw.WriteString("==================\n")
	}
	fmt.Fprintf(bw, "chordgo: %s, %s", count(rep.Stats.Locations, "location"), count(rep.Stats.Reported, "access pair"))
	if fl := rep.Stats.Filtered; fl != (Filtered{}) {
		fmt.Fprintf(bw, " (not reported: %s)", fl)
	}
	bw.WriteString("\n")
	return bw.Flush()
}

// Annotate has WriteText print note(id) under each race with call paths,
// and after each one-line race: what a later stage (chordgo confirm)
// found about it.
func (rep *Report) Annotate(note func(raceID string) string) { rep.note = note }

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

// String lists the counts that are not 0.
func (fl Filtered) String() string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{fl.Suppressed, "suppressed"}, {fl.Baseline, "in the baseline"}, {fl.Unchanged, "on lines the change does not touch"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return strings.Join(parts, ", ")
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
	fl := rep.Stats.Filtered
	if _, err := fmt.Fprintf(w, "reported %s; not reported: %d suppressed (%s), %d in the baseline (-baseline), %d on lines the change does not touch (-new-from-rev)\n",
		count(rep.Stats.Reported, "access pair"), fl.Suppressed, ignoreDirective, fl.Baseline, fl.Unchanged); err != nil {
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
			if _, err := fmt.Fprintf(w, "k not raised (-max-contexts, or twice the first run's estimate): %s\n", c); err != nil {
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
