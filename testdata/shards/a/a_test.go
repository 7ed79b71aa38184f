package a

import (
	"testing"

	"github.com/chordgo/chordgo/testdata/shards/lib"
)

func TestA(t *testing.T) { lib.Bump() }
