// A method as the goroutine (go s.run()): run writes s.state while main reads it.
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
	s.state = 1 // want "race"
}

func main() {
	s := &service{}
	s.wg.Add(1)
	go s.run()
	fmt.Println(s.state) // want "race"
	s.wg.Wait()
}
