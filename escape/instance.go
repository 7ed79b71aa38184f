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

// A Side is a goroutine G (of mhp.Goroutines) that runs an access of a
// pair on location O.
type Side struct {
	G uint32
	O pointsto.Ctx
}

// InstancePrivate returns the sides of cands whose goroutine's instances
// each only ever touch the objects of O they allocated themselves
// (instance.dl): no two instances of G reach one object of O, and no
// instance of G and one of another goroutine that has the same for O.
func InstancePrivate(r *pointsto.Result, gs *mhp.Goroutines, cands []Side) (map[Side]bool, error) {
	prog, err := parseInstanceRules()
	if err != nil {
		return nil, err
	}
	inputs := map[string][]uint32{"pairSide": make([]uint32, 0, 2*len(cands))}
	for _, p := range cands {
		inputs["pairSide"] = append(inputs["pairSide"], p.G, uint32(p.O))
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
	private := map[Side]bool{}
	for t := range db.Tuples("instancePrivate") {
		private[Side{t[0], pointsto.Ctx(t[1])}] = true
	}
	return private, nil
}
