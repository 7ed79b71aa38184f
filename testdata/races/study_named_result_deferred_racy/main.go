// A named result shared by a deferred closure and a goroutine: the deferred
// check reads err when process returns, while the goroutine that process
// started may still be assigning it.
package main

import (
	"errors"
	"fmt"
	"sync"
)

func validate(s string) error {
	if s == "" {
		return errors.New("empty")
	}
	return nil
}

func process(input string, wg *sync.WaitGroup) (err error) {
	defer func() {
		if err != nil { // want "race"
			fmt.Println("process failed")
		}
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		err = validate(input) // want "race"
	}()
	// The return statement loads err again, after the deferred call: a
	// second racy read, which go run -race leaves out because it reports
	// an address once.
	return // want "race"
}

func main() {
	var wg sync.WaitGroup
	process("", &wg)
	wg.Wait()
}
