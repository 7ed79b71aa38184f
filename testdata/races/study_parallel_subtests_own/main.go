// The fixed twin of study_parallel_subtests_racy: each parallel subtest builds
// its own fixture (main_test.go).
package main

type recorder struct {
	last string
}

func (r *recorder) record(s string) {
	r.last = s
}

func main() {}
