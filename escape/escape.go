package escape

import (
	_ "embed"

	"github.com/bits-and-blooms/bitset"
	"github.com/chordgo/chordgo/datalog"
	"github.com/chordgo/chordgo/pointsto"
)

//go:embed escape.dl
var rulesSource string

var parseRules = datalog.Embedded("escape.dl", rulesSource)

// Escaping returns the abstract objects (contexts of r) that may be
// reached by a goroutine other than the one that allocated them.
func Escaping(r *pointsto.Result) (*bitset.BitSet, error) {
	prog, err := parseRules()
	if err != nil {
		return nil, err
	}
	db, err := r.Solve(prog, nil)
	if err != nil {
		return nil, err
	}
	esc := bitset.New(uint(r.Contexts.Len()))
	for t := range db.Tuples("esc") {
		esc.Set(uint(t[0]))
	}
	return esc, nil
}
