package main

import "testing"

func TestA(t *testing.T) {
	evicted := 0
	c := New(func(string) { evicted++ })
	done := make(chan bool)
	c.StartJanitor(done)
	<-done
	evicted++
	if evicted != 2 {
		t.Fatal(evicted)
	}
}

func TestB(t *testing.T) {
	evicted := 0
	c := New(func(string) { evicted++ }) // want "race"
	done := make(chan bool)
	c.StartJanitor(done)
	evicted++ // want "race"
	<-done
}
