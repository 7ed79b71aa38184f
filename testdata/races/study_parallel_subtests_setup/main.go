// A test shares a fixture with its subtests only in the part before
// t.Parallel, which runs while the parent waits in t.Run; after t.Parallel
// each subtest uses its own copy (main_test.go).
package main

type recorder struct {
	last string
}

func (r *recorder) record(s string) {
	r.last = s
}

func main() {}
