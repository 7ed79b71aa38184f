// Package tests has tests, benchmarks, a fuzz target and examples, in an
// internal and an external test file.
package tests

type Counter struct{ n int }

func (c *Counter) Inc() { c.n++ }

func (c *Counter) N() int { return c.n }
