// Each sub-benchmark fills the package's table and then reads it from
// RunParallel's goroutines. The sub-benchmarks' runs, and the runs of one,
// follow one another (b.Run and the benchmark runner wait for each), and
// RunParallel waits for its goroutines: the fills never overlap the reads.
// No race.
package bench

import "testing"

var table map[int]int

func BenchmarkLookup(b *testing.B) {
	for _, size := range []int{1, 10} {
		b.Run("size", func(b *testing.B) {
			table = make(map[int]int)
			for i := range size {
				table[i] = i
			}
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					_ = table[0]
				}
			})
		})
	}
}
