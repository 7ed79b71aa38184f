package main

import "testing"

// TestGCPercent: the heap goal, live*(1+GOGC/100), is twice the largest
// live heap seen, and never below GOGC 100's.
func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		live, largest uint64
		want          int
	}{
		{0, 0, 100},
		{0, 1 << 30, 100},          // no collection yet
		{500, 500, 100},            // at the largest: GOGC 100
		{600, 500, 100},            // cannot happen (largest includes live), still 100
		{250, 500, 300},            // goal 1000 = 2*500
		{100 << 20, 1 << 30, 1948}, // goal 2 GiB
	} {
		got := gcPercent(c.live, c.largest)
		if got != c.want {
			t.Errorf("gcPercent(%d, %d) = %d, want %d", c.live, c.largest, got, c.want)
		}
		if c.live > 0 && c.largest > c.live {
			goal := c.live * uint64(100+got) / 100
			if goal > 2*c.largest || 2*c.largest-goal > c.live/100+1 {
				t.Errorf("gcPercent(%d, %d): goal %d, want about %d", c.live, c.largest, goal, 2*c.largest)
			}
		}
	}
}
