// A method as the goroutine (go s.run()), with main reading s.state only after
// Wait. No race.
package main

import (
	"fmt"
	"sync"
)

type service struct {
	wg    sync.WaitGroup
	state int
}

func (s *service) run() {
	defer s.wg.Done()
	s.state = 1
}

func main() {
	s := &service{}
	s.wg.Add(1)
	go s.run()
	s.wg.Wait()
	fmt.Println(s.state)
}
