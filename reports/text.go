package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// WriteJSON writes the report as indented JSON.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes the races the way the Go race detector prints them,
// so that Go users recognize them: the two accesses with their goroutines
// and call paths (innermost frame first), then the location.
func (rep *Report) WriteText(w io.Writer) error {
	var sb strings.Builder
	for _, race := range rep.Races {
		sb.WriteString("==================\nWARNING: DATA RACE (static)\n")
		for k, a := range race.Accesses {
			op := strings.ToUpper(a.Op[:1]) + a.Op[1:]
			if a.Atomic {
				op = "Atomic " + a.Op
			}
			if k == 1 {
				op = "Previous " + strings.ToLower(op[:1]) + op[1:]
				sb.WriteString("\n")
			}
			fmt.Fprintf(&sb, "%s at %s by %s:\n", op, a.Pos, describe(a.Goroutine))
			for i := len(a.Path) - 1; i >= 0; i-- {
				fmt.Fprintf(&sb, "  %s()\n      %s\n", a.Path[i].Func, a.Path[i].Pos)
			}
			if len(a.Locks) > 0 {
				fmt.Fprintf(&sb, "  locks held: %s\n", strings.Join(a.Locks, ", "))
			}
		}
		fmt.Fprintf(&sb, "\nLocation: %s\n", race.Location.Desc)
	}
	if len(rep.Races) > 0 {
		sb.WriteString("==================\n")
	}
	fmt.Fprintf(&sb, "chordgo: %d data race(s)\n", len(rep.Races))
	_, err := io.WriteString(w, sb.String())
	return err
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
