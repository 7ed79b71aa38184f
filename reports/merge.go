package reports

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ProgramStats are one program's share of Stats: its funnel's counts (its
// own races, before filters), sizes and demand loop.
type ProgramStats struct {
	Name   string         `json:"name"` // pointsto.Program.ProgramName: "path (tests)", "path (main)"
	Pairs  Pairs          `json:"pairs"`
	Sizes  map[string]int `json:"sizes"`
	Demand *Demand        `json:"demand,omitempty"`
}

// programStats returns the programs rep covers: Stats.Programs, or for a
// report Build made of one program, that program's stats; nil when rep
// was built from several programs analyzed together.
func (rep *Report) programStats() []ProgramStats {
	if rep.Stats.Programs != nil || rep.program == "" {
		return rep.Stats.Programs
	}
	return []ProgramStats{{Name: rep.program, Pairs: rep.Stats.Pairs, Sizes: rep.Stats.Sizes, Demand: rep.Stats.Demand}}
}

// Describe describes every race of rep now, the first Options.MaxPaths of
// each location with call paths as the writers would, and drops the
// points-to and races rep was built from: a caller that holds the reports
// of several programs (demand.Each) holds their descriptions only, and
// memory grows with the number of races, not with the programs' analyses.
func (rep *Report) Describe() {
	if rep.b == nil {
		return
	}
	rep.each(func(g *group, i int, race Race) error {
		g.races[i].desc, g.races[i].race = &race, nil
		return nil
	})
	rep.funcInfo = map[string]FuncInfo{}
	for name := range rep.b.funcs {
		rep.funcInfo[name], _ = rep.Func(name)
	}
	rep.Stats.Programs = rep.programStats()
	rep.b = nil
}

// Merge puts together the reports of programs analyzed in separate runs
// (demand.Each) or of shards of a module's programs (chordgo check -shard,
// read back with ReadJSON), and describes them (Describe). The result
// does not depend on the order of reps, nor on how the programs were
// grouped into them: programs are ordered by name, counts are sums, and a
// choice between copies is made by content. So the shards of a module
// merge into the report of the whole.
//
// A location of several programs (code they share) is one location with
// the pairs of all. A race of several programs (the same two accesses,
// the same id) is shown once, with the roots of all, sorted, and the
// goroutines and paths of one copy: the least in its JSON encoding
// without roots. The first Options.MaxPaths races of a merged location
// are each among the first of their location in every program that has
// them (a program's races are a subset of the merged ones, sorted alike),
// so the copy chosen has paths where the merged report shows them.
//
// Stats: the funnel's counts before the last stage, sizes and times are
// summed; the ultimate pairs are the distinct races, those reported plus
// those filters took out (a race filtered out of two shards once, by the
// ids a shard's report lists); the demand loops' iterations follow one another
// in program order, and their sites per k are summed. Two reports that
// cover the same program are an error (shards that overlap). The merged
// report has opts.
func Merge(reps []*Report, opts Options) (*Report, error) {
	out := &Report{opts: opts, Stats: Stats{Seconds: map[string]float64{}, Sizes: map[string]int{}}, funcInfo: map[string]FuncInfo{}}
	byRace := map[string]entry{} // race id -> its copy, chosen so far
	byProgram := map[string]bool{}
	// Filters take a race out in every program that has it: one filtered
	// in two shards is counted once, by its id, unless a report gives
	// the counts only.
	var uncounted Filtered
	for _, rep := range reps {
		rep.Describe()
		maps.Copy(out.funcInfo, rep.funcInfo)
		for _, g := range rep.groups {
			for _, e := range g.races {
				kept, ok := byRace[e.desc.ID]
				if !ok {
					byRace[e.desc.ID] = e
					continue
				}
				chosen := *kept.desc
				if compareCopies(e.desc, kept.desc) < 0 {
					chosen = *e.desc
				}
				for a := range chosen.Accesses {
					chosen.Accesses[a].Roots = unionSorted(kept.desc.Accesses[a].Roots, e.desc.Accesses[a].Roots)
				}
				kept.desc = &chosen
				byRace[e.desc.ID] = kept
			}
		}
		for _, e := range rep.Errors {
			if !slices.Contains(out.Errors, e) {
				out.Errors = append(out.Errors, e)
			}
		}
		for _, p := range rep.programStats() {
			if byProgram[p.Name] {
				return nil, fmt.Errorf("program %s is in two of the reports merged", p.Name)
			}
			byProgram[p.Name] = true
			out.Stats.Programs = append(out.Stats.Programs, p)
		}
		for name, sec := range rep.Stats.Seconds {
			out.Stats.Seconds[name] += sec
		}
		if rep.filtered.complete(rep.Stats.Filtered) {
			f := &out.filtered
			f.Suppressed = unionSorted(f.Suppressed, rep.filtered.Suppressed)
			f.Baseline = unionSorted(f.Baseline, rep.filtered.Baseline)
			f.Unchanged = unionSorted(f.Unchanged, rep.filtered.Unchanged)
		} else {
			uncounted.Suppressed += rep.Stats.Filtered.Suppressed
			uncounted.Baseline += rep.Stats.Filtered.Baseline
			uncounted.Unchanged += rep.Stats.Filtered.Unchanged
		}
	}
	f := out.filtered
	out.Stats.Filtered = Filtered{
		Suppressed: len(f.Suppressed) + uncounted.Suppressed,
		Baseline:   len(f.Baseline) + uncounted.Baseline,
		Unchanged:  len(f.Unchanged) + uncounted.Unchanged,
	}
	// A race is under its chosen copy's location: the same two accesses
	// can be on objects of different sites in different programs.
	byLoc := map[string]int{} // location id -> index in out.groups
	for _, id := range slices.Sorted(maps.Keys(byRace)) {
		e := byRace[id]
		k, ok := byLoc[e.desc.Location.ID]
		if !ok {
			k = len(out.groups)
			byLoc[e.desc.Location.ID] = k
			out.groups = append(out.groups, group{loc: e.desc.Location})
		}
		out.groups[k].races = append(out.groups[k].races, e)
	}
	slices.SortFunc(out.Stats.Programs, func(a, b ProgramStats) int { return strings.Compare(a.Name, b.Name) })
	s := &out.Stats
	for _, p := range s.Programs {
		s.Pairs.Original += p.Pairs.Original
		s.Pairs.Aliasing += p.Pairs.Aliasing
		s.Pairs.Escaping += p.Pairs.Escaping
		s.Pairs.Parallel += p.Pairs.Parallel
		s.Pairs.Unlocked += p.Pairs.Unlocked
		for name, n := range p.Sizes {
			s.Sizes[name] += n
		}
		if d := p.Demand; d != nil {
			if s.Demand == nil {
				s.Demand = &Demand{SitesByK: map[string]int{}}
			}
			m := s.Demand
			m.Iterations += d.Iterations
			m.Contexts = append(m.Contexts, d.Contexts...)
			m.Estimates = append(m.Estimates, d.Estimates...)
			m.RacePairs = append(m.RacePairs, d.RacePairs...)
			m.Seconds = append(m.Seconds, d.Seconds...)
			m.Capped = append(m.Capped, d.Capped...)
			for k, n := range d.SitesByK {
				m.SitesByK[k] += n
			}
		}
	}
	for _, g := range out.groups {
		slices.SortFunc(g.races, func(a, b entry) int { return cmp.Or(compareEntries(a, b), strings.Compare(a.desc.ID, b.desc.ID)) })
		s.Reported += len(g.races)
	}
	out.sortGroups()
	s.Locations = len(out.groups)
	fl := s.Filtered
	s.Pairs.Ultimate = s.Reported + fl.Suppressed + fl.Baseline + fl.Unchanged
	return out, nil
}

// compareCopies orders two descriptions of one race found in two programs
// by their JSON encoding without roots.
func compareCopies(a, b *Race) int {
	enc := func(r Race) []byte {
		for k := range r.Accesses {
			r.Accesses[k].Roots = nil
		}
		data, _ := json.Marshal(r) // a Race always encodes
		return data
	}
	return bytes.Compare(enc(*a), enc(*b))
}

// unionSorted returns the sorted union of two lists of names.
func unionSorted(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// ReadJSON reads a report chordgo check -json wrote (the schema of
// doc.go), for Merge: its races are described as written, and its stats
// must name its programs (stats.programs) unless it has no race (a shard
// without programs).
func ReadJSON(r io.Reader) (*Report, error) {
	var in struct {
		Races  []Race   `json:"races"`
		Errors []string `json:"errors"`
		Stats  Stats    `json:"stats"`
	}
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, err
	}
	if in.Stats.Sizes == nil || len(in.Stats.Programs) == 0 && len(in.Races) > 0 {
		return nil, fmt.Errorf("stats.programs is missing: not a report of chordgo check -json")
	}
	rep := &Report{Errors: in.Errors, Stats: in.Stats, funcInfo: map[string]FuncInfo{}}
	if ids := in.Stats.FilteredIDs; ids != nil {
		rep.filtered, rep.Stats.FilteredIDs = *ids, nil
	}
	byLoc := map[string]int{}
	for i := range in.Races {
		race := &in.Races[i]
		if err := race.parsePositions(); err != nil {
			return nil, fmt.Errorf("race %s: %w", race.ID, err)
		}
		k, ok := byLoc[race.Location.ID]
		if !ok {
			k = len(rep.groups)
			byLoc[race.Location.ID] = k
			rep.groups = append(rep.groups, group{loc: race.Location})
		}
		e := entry{desc: race, order: [2]token.Position{race.Accesses[0].pos, race.Accesses[1].pos}}
		rep.groups[k].races = append(rep.groups[k].races, e)
	}
	return rep, nil
}

// parsePositions sets the positions behind the "FILE:line:col" strings of
// a race read from JSON.
func (race *Race) parsePositions() error {
	var err error
	if race.Location.Object != "" {
		if race.Location.object, err = parsePos(race.Location.Object); err != nil {
			return err
		}
	}
	for k := range race.Accesses {
		acc := &race.Accesses[k]
		if acc.pos, err = parsePos(acc.Pos); err != nil {
			return err
		}
		for j := range acc.Path {
			if acc.Path[j].pos, err = parsePos(acc.Path[j].Pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// parsePos reads a position as builder.position writes it: "FILE:line:col",
// or "-" for none.
func parsePos(s string) (token.Position, error) {
	if s == "-" {
		return token.Position{}, nil
	}
	rest, col, ok1 := cutLast(s)
	file, line, ok2 := cutLast(rest)
	l, err1 := strconv.Atoi(line)
	c, err2 := strconv.Atoi(col)
	if !ok1 || !ok2 || file == "" || cmp.Or(err1, err2) != nil {
		return token.Position{}, fmt.Errorf("position %q: want FILE:line:col", s)
	}
	return token.Position{Filename: file, Line: l, Column: c}, nil
}

// cutLast splits s at its last colon.
func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
