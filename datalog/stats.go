package datalog

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Stats describes one Run: per stratum and per rule, tuples and time, in
// the spirit of souffleprof.
type Stats struct {
	Strata []*StratumStats
	Rules  []*RuleStats // in program order
	Time   time.Duration
}

// StratumStats describes the evaluation of one stratum.
type StratumStats struct {
	Relations  []string
	Iterations int // semi-naive iterations, counting the initial pass
	Tuples     int // tuples in the stratum's relations at the end
	Time       time.Duration
}

// RuleStats describes the evaluations of one rule, over all its variants
// and iterations.
type RuleStats struct {
	Rule        string
	Pos         Pos
	Tuples      int // new tuples this rule derived
	Evaluations int
	Time        time.Duration
}

// Write prints the statistics as tables: strata in evaluation order, then
// rules, slowest first.
func (s *Stats) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "stratum\titerations\ttuples\ttime\t relations\n")
	for i, st := range s.Strata {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t %s\n", i, st.Iterations, st.Tuples, roundDuration(st.Time), strings.Join(st.Relations, " "))
	}
	fmt.Fprintf(tw, "total\t\t\t%s\t\n\n", roundDuration(s.Time))
	fmt.Fprintf(tw, "rule\tevaluations\ttuples\ttime\t \n")
	rules := slices.Clone(s.Rules)
	slices.SortStableFunc(rules, func(a, b *RuleStats) int { return int(b.Time - a.Time) })
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t %s\n", r.Pos, r.Evaluations, r.Tuples, roundDuration(r.Time), r.Rule)
	}
	return tw.Flush()
}

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	}
	return d
}
