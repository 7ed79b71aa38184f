package racesuite

import (
	"fmt"
	"sort"
	"strings"
)

// Race is the outcome of one reported race, as the scorer needs it: the entry
// functions (test roots) from which each of its two accesses is reached, given
// as SSA-style names such as "racesuite.TestRaceX" or "racesuite_test.TestRaceX"
// or just "TestRaceX" (matched on the part after the last '.').
type Race struct{ Roots [2][]string }

// Scoreboard is the result of Score.
type Scoreboard struct {
	RaceTests, Found         int      // counted TestRace* tests, and how many were found
	NoRaceTests, FalseAlarms int      // counted TestNoRace* tests, and how many had a race reported
	Missed, Alarms           []string // names, sorted
}

// Score scores races against the suite. A TestRace* test is found when some
// race has the test among the roots of both accesses; a TestNoRace* test is a
// false alarm when some race does. Requiring both accesses keeps a race
// between two different tests (e.g. on a shared global) from counting for
// either: the dynamic detector runs tests one at a time. Excluded tests are
// not counted.
func (s *Suite) Score(races []Race) *Scoreboard {
	hit := make(map[string]bool)
	for _, r := range races {
		first := make(map[string]bool)
		for _, root := range r.Roots[0] {
			first[shortName(root)] = true
		}
		for _, root := range r.Roots[1] {
			if name := shortName(root); first[name] {
				hit[name] = true
			}
		}
	}

	b := &Scoreboard{}
	for _, t := range s.Tests {
		switch {
		case t.Excluded != "":
		case t.WantRace:
			b.RaceTests++
			if hit[t.Name] {
				b.Found++
			} else {
				b.Missed = append(b.Missed, t.Name)
			}
		default:
			b.NoRaceTests++
			if hit[t.Name] {
				b.FalseAlarms++
				b.Alarms = append(b.Alarms, t.Name)
			}
		}
	}
	sort.Strings(b.Missed)
	sort.Strings(b.Alarms)
	return b
}

func shortName(root string) string {
	return root[strings.LastIndexByte(root, '.')+1:]
}

// Recall is Found/RaceTests, or 0 when no race test was counted.
func (b *Scoreboard) Recall() float64 { return ratio(b.Found, b.RaceTests) }

// FalseAlarmRate is FalseAlarms/NoRaceTests, or 0 when no no-race test was counted.
func (b *Scoreboard) FalseAlarmRate() float64 { return ratio(b.FalseAlarms, b.NoRaceTests) }

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// String is a short summary: both rates, then the missed and alarmed tests.
func (b *Scoreboard) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "race tests:    %d/%d found (recall %.1f%%)\n", b.Found, b.RaceTests, 100*b.Recall())
	fmt.Fprintf(&sb, "no-race tests: %d/%d false alarms (%.1f%%)\n", b.FalseAlarms, b.NoRaceTests, 100*b.FalseAlarmRate())
	list := func(title string, names []string) {
		fmt.Fprintf(&sb, "%s (%d):", title, len(names))
		if len(names) == 0 {
			sb.WriteString(" none\n")
			return
		}
		sb.WriteString("\n")
		for _, n := range names {
			fmt.Fprintf(&sb, "  %s\n", n)
		}
	}
	list("missed", b.Missed)
	list("false alarms", b.Alarms)
	return sb.String()
}
