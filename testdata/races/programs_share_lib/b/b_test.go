package b

import (
	"testing"

	"github.com/chordgo/chordgo/testdata/races/programs_share_lib/lib"
)

func TestB(t *testing.T) {
	box := lib.New()
	done := make(chan bool)
	box.Run(func(b *lib.Box) {
		b.V = 2 // want "race"
		done <- true
	})
	_ = box.V // want "race"
	<-done
}
