// The captured err shape: the goroutine assigns the err that the enclosing
// function declared with x, err := ..., and the function goes on to read it.
package main

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
)

func flush(n int) (int, error) {
	if n > 100 {
		return 0, errors.New("too big")
	}
	return n, nil
}

func main() {
	var wg sync.WaitGroup
	n, err := strconv.Atoi("42")
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err = flush(n) // want "race"
	}()
	if err != nil { // want "race"
		fmt.Println("not a number")
	}
	wg.Wait()
	fmt.Println(n)
}
