package cache

import (
	"testing"
	"time"
)

// TestWitnessOnEvictedJanitor: the janitor calls c.onEvicted (cache.go:946)
// after unlocking c.mu, while OnEvicted writes it under c.mu (cache.go:955).
// Nothing orders the janitor's read after a later OnEvicted: a race that no
// test of the module reaches (TestOnEvicted's cache has no janitor).
func TestWitnessOnEvictedJanitor(t *testing.T) {
	tc := New(time.Millisecond, time.Millisecond)
	tc.OnEvicted(func(string, interface{}) {})
	for deadline := time.Now().Add(300 * time.Millisecond); time.Now().Before(deadline); {
		tc.Set("k", 1, time.Nanosecond)
		tc.OnEvicted(func(string, interface{}) {})
		time.Sleep(100 * time.Microsecond)
	}
}
