// Medium-grained locking in its common Go form: each shard's mutex guards the
// map the shard made in its constructor. The map is reached from the shard
// through a field, and no other shard's field ever refers to it, so two
// goroutines that update one map hold one shard's mutex.
package main

import (
	"fmt"
	"sync"
)

type shard struct {
	mu     sync.Mutex
	counts map[string]int
}

func newShard() *shard { return &shard{counts: make(map[string]int)} }

func (s *shard) add(key string) {
	s.mu.Lock()
	s.counts[key]++
	s.mu.Unlock()
}

func main() {
	shards := []*shard{newShard(), newShard()}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			shards[i%2].add("k")
		}()
	}
	wg.Wait()
	fmt.Println(shards[0].counts, shards[1].counts)
}
