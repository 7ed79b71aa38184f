// Two tests without t.Parallel run one after the other: their writes of one
// global do not race (main_test.go).
package main

var counter int

func main() {}
