// Parallel subtests of a table-driven test share a fixture built by the
// parent (main_test.go).
package main

type recorder struct {
	last string
}

func (r *recorder) record(s string) {
	r.last = s // want "race"
}

func main() {}
