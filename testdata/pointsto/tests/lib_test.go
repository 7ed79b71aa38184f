package tests

import (
	"fmt"
	"testing"
)

func TestInc(t *testing.T) {
	var c Counter
	c.Inc()
	if c.N() != 1 {
		t.Fatal("want 1")
	}
}

func TestParallelInc(t *testing.T) {
	t.Parallel()
	var c Counter
	c.Inc()
}

func Testify(t *testing.T) {} // not a test: lower-case letter after "Test"

func Test(t *testing.T) {} // a test: nothing after "Test"

func BenchmarkInc(b *testing.B) {
	var c Counter
	for range b.N {
		c.Inc()
	}
}

func ExampleCounter() {
	var c Counter
	c.Inc()
	fmt.Println(c.N())
	// Output: 1
}

func ExampleCounter_N() { // compiled but not run: no output comment
	var c Counter
	fmt.Println(c.N())
}
