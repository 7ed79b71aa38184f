package b

import (
	"testing"

	"github.com/chordgo/chordgo/testdata/shards/lib"
)

func TestB(t *testing.T) { lib.Bump() }
