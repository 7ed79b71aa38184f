package main

import (
	"testing"
	"time"
)

func TestRecord(t *testing.T) {
	for _, name := range []string{"a", "b", "c"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			rec.record(name)
			time.Sleep(10 * time.Millisecond)
		})
	}
}
