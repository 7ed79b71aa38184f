package main

func main() {
	x := 0
	f := func() {
		x = 1 // @write
	}
	f()
	println(x) // @read
}
