// TestA registers a cleanup that writes count and starts a goroutine that
// writes it too, without waiting for it (main_test.go): the test runner
// runs the cleanup after TestA returns, while the goroutine may still
// run.
package main

var count int

func main() {}
