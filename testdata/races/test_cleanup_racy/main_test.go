package main

import "testing"

func TestA(t *testing.T) {
	t.Cleanup(func() {
		count++ // want "race"
	})
	go func() {
		count++ // want "race"
	}()
}
