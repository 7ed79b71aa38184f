// The fixed twin of study_named_result_deferred_racy: process waits for its
// goroutine before it returns, so the assignment of err happens before the
// deferred check reads it.
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

func process(input string) (err error) {
	defer func() {
		if err != nil {
			fmt.Println("process failed")
		}
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err = validate(input)
	}()
	wg.Wait()
	return
}

func main() {
	fmt.Println(process(""))
}
