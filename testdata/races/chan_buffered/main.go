// Buffered channel, send then receive: a send happens before the receive that
// takes its value, whatever the capacity. No race.
package main

import "fmt"

type job struct{ out int }

func main() {
	j := &job{}
	c := make(chan bool, 4)
	go func() {
		j.out = 7
		c <- true
	}()
	<-c
	fmt.Println(j.out)
}
