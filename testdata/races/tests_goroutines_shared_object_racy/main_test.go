package main

import (
	"sync"
	"testing"
)

// shared is opened by the package initializer, before every test.
var shared = Open()

func TestMany(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			shared.mmap(8)
		}()
	}
	wg.Wait()
}

func TestOne(t *testing.T) {
	db := Open()
	db.Close()
}
