// RunParallel's goroutines run at the same time: each writes the counter
// before it takes its first iteration, without synchronization, and the
// writes race.
package bench

import "testing"

var starts int

func BenchmarkCount(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		starts++ // want "race"
		for pb.Next() {
		}
	})
}
