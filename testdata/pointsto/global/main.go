// Globals: a counter and a pointer initialized by the package initializer.
package main

type Config struct {
	name string
	n    *int
}

var counter int

var cfg = &Config{name: "c"} // @cfg

func main() {
	counter++        // @inc
	cfg.n = &counter // @store
	println(*cfg.n)
}
