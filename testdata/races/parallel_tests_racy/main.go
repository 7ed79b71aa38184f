// Two tests that call t.Parallel run at the same time and both write one
// global (main_test.go).
package main

var counter int

func main() {}
