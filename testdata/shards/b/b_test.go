package b

import (
	"testing"

	"github.com/chordgo/chordgo/testdata/shards/lib"
)

// TestB has a race of its own besides the library's.
func TestB(t *testing.T) {
	lib.Bump()
	x := new(int)
	go func() { *x = 1 }()
	*x = 2
}
