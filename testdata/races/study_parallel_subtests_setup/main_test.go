package main

import (
	"testing"
	"time"
)

func TestRecord(t *testing.T) {
	shared := &recorder{}
	for _, name := range []string{"a", "b", "c"} {
		t.Run(name, func(t *testing.T) {
			shared.record(name)
			mine := *shared
			t.Parallel()
			if mine.last != name {
				t.Errorf("got %q, want %q", mine.last, name)
			}
			time.Sleep(10 * time.Millisecond)
		})
	}
}
