// Package store is the input of races.BenchmarkParallelStage, which adds
// its tests (races/bench_test.go): a store whose methods many tests call,
// each test starting goroutines of its own, so that the race funnel's
// parallel stage asks about each access pair in many goroutine pairs and
// on many objects, as it does on bbolt's tests.
// It is not a race test: Bucket.n races where a test's goroutines share a
// bucket, and nothing checks that.
package store

import "sync"

// Store is a map under a lock, with a janitor goroutine.
type Store struct {
	mu    sync.Mutex
	items map[string]int
	count int
	stats Stats
	wg    sync.WaitGroup
}

// Stats counts the operations.
type Stats struct{ Puts, Gets int }

// Bucket is a named part of a store.
type Bucket struct {
	s    *Store
	name string
	n    int
}

// Open makes a store and starts its janitor.
func Open() *Store {
	s := &Store{items: map[string]int{}}
	s.wg.Add(1)
	go s.janitor()
	return s
}

func (s *Store) janitor() {
	defer s.wg.Done()
	s.mu.Lock()
	s.count = 0
	s.mu.Unlock()
}

// Close waits for the janitor.
func (s *Store) Close() { s.wg.Wait() }

// Put stores v under k.
func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	s.items[k] = v
	s.count++
	s.stats.Puts++
	s.mu.Unlock()
}

// Get returns what k holds.
func (s *Store) Get(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Gets++
	return s.items[k]
}

// Bucket returns the bucket of that name.
func (s *Store) Bucket(name string) *Bucket { return &Bucket{s: s, name: name} }

// Put stores v under the bucket's key k.
func (b *Bucket) Put(k string, v int) {
	b.n++
	b.s.Put(b.name+k, v)
}

// Len returns how many puts the bucket took.
func (b *Bucket) Len() int { return b.n }
