// Go statements: a named function and a closure.
package main

func worker(p *int) {
	*p = 1 // @write
}

func main() {
	x := new(int) // @newx
	go worker(x)  // @go
	done := make(chan bool)
	go func() { // @goclosure
		*x = 2
		done <- true
	}()
	<-done
	println(*x) // @read
}
