package spans

import (
	"sync"
	"testing"
)

func words(n int) []uint64 {
	ws := make([]uint64, n)
	for i := range ws {
		ws[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	return ws
}

// TestSum: two goroutines sum the same words and get the same digest.
func TestSum(t *testing.T) {
	ws := words(1000)
	var got [2]uint64
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() { got[g] = Sum(ws) })
	}
	wg.Wait()
	if got[0] != got[1] || got[0] == 0 {
		t.Errorf("digests %x and %x, want equal and not zero", got[0], got[1])
	}
}

// BenchmarkSum: two goroutines each sum 64Ki words per iteration.
func BenchmarkSum(b *testing.B) {
	ws := words(1 << 16)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			Sum(ws)
		}
	})
}
