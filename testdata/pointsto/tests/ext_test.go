package tests_test

import (
	"testing"

	"github.com/chordgo/chordgo/testdata/pointsto/tests"
)

func TestExt(t *testing.T) {
	var c tests.Counter
	c.Inc()
}

func FuzzInc(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) {
		var c tests.Counter
		c.Inc()
	})
}
