package races

import (
	"fmt"
	"slices"

	"github.com/chordgo/chordgo/escape"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
)

// instanceEscape applies instance escape (escape.InstancePrivate) to the
// pairs left by thread escape. A goroutine of a pair is private on its
// location when each of its instances only touches the objects of the
// location it allocated itself: two instances of a private goroutine never
// touch one object, and neither do a private goroutine and another private
// one (an object has one allocating goroutine), so a goroutine pair of two
// private goroutines (one twice included) is not a race. A pair all of
// whose goroutines are private goes here (counted in the escaping stage);
// the others keep their private goroutines in alone, and dropAlone takes
// their goroutine pairs out once the parallel stage has made them.
func instanceEscape(r *pointsto.Result, gs *mhp.Goroutines, pairs []pair) ([]pair, error) {
	var cands []escape.Side
	seen := map[escape.Side]bool{}
	for _, p := range pairs {
		for _, g := range slices.Concat(p.g[0], p.g[1]) {
			if c := (escape.Side{G: g, O: p.o}); !seen[c] {
				seen[c] = true
				cands = append(cands, c)
			}
		}
	}
	private, err := escape.InstancePrivate(r, gs, cands)
	if err != nil {
		return nil, err
	}
	for i := range pairs {
		p := &pairs[i]
		for _, g := range union(p.g[0], p.g[1]) {
			if private[escape.Side{G: g, O: p.o}] {
				p.alone = append(p.alone, g)
			}
		}
	}
	return slices.DeleteFunc(pairs, func(p pair) bool {
		return len(p.alone) == len(union(p.g[0], p.g[1]))
	}), nil
}

// instanceWork returns the size of instanceEscape's input for pairs: the
// threadReach tuples of the goroutines of their sides.
func instanceWork(gs *mhp.Goroutines, pairs []pair) int {
	cand := map[uint32]bool{}
	for _, p := range pairs {
		for _, g := range slices.Concat(p.g[0], p.g[1]) {
			cand[g] = true
		}
	}
	n := 0
	for t := range gs.Tuples("threadReach") {
		if cand[t[0]] {
			n++
		}
	}
	return n
}

// union returns the goroutines in either sorted list, sorted.
func union(a, b []uint32) []uint32 {
	return slices.Compact(slices.Sorted(slices.Values(slices.Concat(a, b))))
}

// dropAlone takes out of each pair's goroutine pairs those of two of its
// alone goroutines (instanceEscape). Such a pair gets a shared id of its
// own, one per list it came with and goroutines taken out, so that the
// pairs that still share a list are those with the same goroutine pairs.
func dropAlone(pairs []pair) {
	next := 0
	for _, p := range pairs {
		next = max(next, p.shared+1)
	}
	ids := map[string]int{}
	for i := range pairs {
		p := &pairs[i]
		if len(p.alone) == 0 {
			continue
		}
		gp := keptPairs(p.gp, func(_ int, gp [2]uint32) bool {
			return slices.Contains(p.alone, gp[0]) && slices.Contains(p.alone, gp[1])
		})
		if len(gp) == len(p.gp) {
			continue
		}
		key := fmt.Sprint(p.shared, p.alone)
		id, ok := ids[key]
		if !ok {
			id = next
			next++
			ids[key] = id
		}
		p.gp, p.shared = gp, id
	}
}
