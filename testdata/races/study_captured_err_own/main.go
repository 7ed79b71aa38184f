// The fixed twin of study_captured_err_racy: the goroutine declares its own err
// with := and hands it back over a channel.
package main

import (
	"errors"
	"fmt"
	"strconv"
)

func flush(n int) (int, error) {
	if n > 100 {
		return 0, errors.New("too big")
	}
	return n, nil
}

func main() {
	n, err := strconv.Atoi("42")
	flushErr := make(chan error, 1)
	go func() {
		_, err := flush(n)
		flushErr <- err
	}()
	if err != nil {
		fmt.Println("not a number")
	}
	fmt.Println(n, <-flushErr)
}
