// As subtests_sequential, but both tests call t.Parallel before they run
// their subtests: the two tests, and so their subtests, may run at the
// same time (the sleeps let both start before either writes).
package subtests

import (
	"testing"
	"time"
)

var runs int

func TestFirst(t *testing.T) {
	t.Parallel()
	t.Run("inc", func(t *testing.T) {
		time.Sleep(50 * time.Millisecond)
		runs++ // want "race"
	})
}

func TestSecond(t *testing.T) {
	t.Parallel()
	t.Run("inc", func(t *testing.T) {
		time.Sleep(50 * time.Millisecond)
		runs += 2 // want "race"
	})
}
