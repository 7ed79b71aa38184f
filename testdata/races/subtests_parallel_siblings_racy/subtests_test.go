// Subtests of one test that call t.Parallel run at the same time once the
// test's function has returned: their writes race.
package subtests

import (
	"testing"
	"time"
)

var total int

func TestSum(t *testing.T) {
	for _, n := range []int{2, 3} {
		t.Run("add", func(t *testing.T) {
			t.Parallel()
			time.Sleep(50 * time.Millisecond)
			total += n // want "race"
		})
	}
}
