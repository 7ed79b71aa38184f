// Tests, and the subtests of one test, each write the same package
// variable. The runner runs the tests one after the other, and t.Run
// returns only after its subtest has finished: no two of them overlap.
// No race.
package subtests

import "testing"

var runs int

func TestFirst(t *testing.T) {
	t.Run("inc", func(t *testing.T) { runs++ })
}

func TestSecond(t *testing.T) {
	for _, n := range []int{2, 3} {
		t.Run("add", func(t *testing.T) { runs += n })
	}
	runs *= 2
}
