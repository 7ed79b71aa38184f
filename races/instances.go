package races

import (
	"fmt"
	"slices"

	"github.com/chordgo/chordgo/escape"
	"github.com/chordgo/chordgo/mhp"
	"github.com/chordgo/chordgo/pointsto"
)

// instanceEscape applies instance escape (escape.InstancePrivate) to the
// pairs left by thread escape: where a goroutine g that may run many times
// runs both accesses of a pair on a location no two instances of g reach,
// the goroutine pair (g, g) is not a race. A pair whose only goroutine pair
// is that one goes here (counted in the escaping stage); the others keep
// the goroutines in alone, and dropAlone takes their (g, g) out once the
// parallel stage has made the goroutine pairs.
func instanceEscape(r *pointsto.Result, gs *mhp.Goroutines, pairs []pair) ([]pair, error) {
	var cands []escape.SelfPair
	seen := map[escape.SelfPair]bool{}
	for _, p := range pairs {
		for _, g := range intersect(p.g[0], p.g[1]) {
			c := escape.SelfPair{G: g, O: p.o}
			if gr := &gs.List[g]; gr.Kind == mhp.GoGoroutine && !gr.Single && !seen[c] {
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
		for _, g := range intersect(p.g[0], p.g[1]) {
			if private[escape.SelfPair{G: g, O: p.o}] {
				p.alone = append(p.alone, g)
			}
		}
	}
	return slices.DeleteFunc(pairs, func(p pair) bool {
		return len(p.alone) == 1 && slices.Equal(p.g[0], p.alone) && slices.Equal(p.g[1], p.alone)
	}), nil
}

// intersect returns the goroutines in both sorted lists.
func intersect(a, b []uint32) []uint32 {
	var out []uint32
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			a = a[1:]
		case a[0] > b[0]:
			b = b[1:]
		default:
			out = append(out, a[0])
			a, b = a[1:], b[1:]
		}
	}
	return out
}

// dropAlone takes out of each pair's goroutine pairs the (g, g) of its
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
		gp := slices.DeleteFunc(slices.Clone(p.gp), func(gp [2]uint32) bool {
			return gp[0] == gp[1] && slices.Contains(p.alone, gp[0])
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
		p.gp, p.shared = slices.Clip(gp), id
	}
}
