package a

import (
	"sync"
	"testing"

	"github.com/chordgo/chordgo/testdata/races/programs_share_lib/lib"
)

// TestA waits for its goroutine before it reads: no race, and none with
// package b's test, which runs in another process.
func TestA(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	box := lib.New()
	box.Run(func(b *lib.Box) {
		defer wg.Done()
		b.V = 1
	})
	wg.Wait()
	if box.V != 1 {
		t.Fatal(box.V)
	}
}
