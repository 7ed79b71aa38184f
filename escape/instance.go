package escape

import (
	_ "embed"
	"slices"

	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
)

//go:embed instance.dl
var instanceSource string

var parseInstanceRules = datalog.Embedded("instance.dl", instanceSource)

// A SelfPair is a goroutine G (of mhp.Goroutines) that runs both accesses
// of a pair on location O.
type SelfPair struct {
	G uint32
	O pointsto.Ctx
}

// InstancePrivate returns the pairs of cands whose location no two
// instances of the goroutine reach (instance.dl): each instance of G only
// ever touches the objects of O it allocated itself.
func InstancePrivate(r *pointsto.Result, gs *mhp.Goroutines, cands []SelfPair) (map[SelfPair]bool, error) {
	prog, err := parseInstanceRules()
	if err != nil {
		return nil, err
	}
	inputs := map[string][]uint32{"selfPair": make([]uint32, 0, 2*len(cands))}
	for _, p := range cands {
		inputs["selfPair"] = append(inputs["selfPair"], p.G, uint32(p.O))
	}
	for _, rel := range []string{"threadReach", "spawnSite", "unseenObj"} {
		var flat []uint32
		for t := range gs.Tuples(rel) {
			flat = append(flat, t...)
		}
		inputs[rel] = slices.Clip(flat)
	}
	db, err := r.Solve(prog, inputs)
	if err != nil {
		return nil, err
	}
	private := map[SelfPair]bool{}
	for t := range db.Tuples("instancePrivate") {
		private[SelfPair{t[0], pointsto.Ctx(t[1])}] = true
	}
	return private, nil
}
