// sync.Once: load runs once, and its writes happen before every Do returns, so
// both goroutines read config safely after Do. No race.
package main

import (
	"fmt"
	"sync"
)

var (
	once   sync.Once
	config map[string]string
)

func load() { config = map[string]string{"mode": "fast"} }

func get(key string) string {
	once.Do(load)
	return config[key]
}

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = get("mode")
	}()
	fmt.Println(get("mode"))
	wg.Wait()
}
