package main

import (
	"testing"
	"time"
)

func TestA(t *testing.T) {
	t.Parallel()
	counter++ // want "race"
	time.Sleep(10 * time.Millisecond)
}

func TestB(t *testing.T) {
	t.Parallel()
	counter++ // want "race"
	time.Sleep(10 * time.Millisecond)
}
