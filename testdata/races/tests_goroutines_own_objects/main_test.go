package main

import (
	"sync"
	"testing"
)

func TestMany(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db := Open()
			db.Close()
		}()
	}
	wg.Wait()
}

func TestOne(t *testing.T) {
	db := Open()
	<-db.Check()
	db.mmap(16)
	db.Close()
}
