// A main package with a test: two programs.
package main

var counter int

func bump() { counter++ }

func main() { bump() }
