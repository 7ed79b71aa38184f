// Package loops has loop- and array-heavy work on goroutine-local data:
// every access is race-free, and each goroutine's data lives on the heap,
// so the race detector checks each load and store unless told otherwise.
package loops

// SumSquares fills a slice of n elements and sums their squares.
func SumSquares(n int) int64 {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(i)
	}
	var s int64
	for _, x := range xs {
		s += x * x
	}
	return s
}

// A Matrix is an n x n matrix, row-major.
type Matrix struct {
	N    int
	Elem []float64
}

// NewMatrix returns an n x n matrix with a[i][j] = i + j.
func NewMatrix(n int) *Matrix {
	m := &Matrix{N: n, Elem: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m.Elem[i*n+j] = float64(i + j)
		}
	}
	return m
}

// Mul sets c to a times b.
func Mul(c, a, b *Matrix) {
	n := a.N
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += a.Elem[i*n+k] * b.Elem[k*n+j]
			}
			c.Elem[i*n+j] = s
		}
	}
}

// Trace multiplies two n x n matrices and returns the trace of the product.
func Trace(n int) float64 {
	a, b, c := NewMatrix(n), NewMatrix(n), NewMatrix(n)
	Mul(c, a, b)
	var t float64
	for i := 0; i < n; i++ {
		t += c.Elem[i*n+i]
	}
	return t
}

// Stats summarizes a stream of numbers.
type Stats struct {
	Count, Sum, Min, Max int64
}

// Add counts x.
func (s *Stats) Add(x int64) {
	if s.Count == 0 || x < s.Min {
		s.Min = x
	}
	if s.Count == 0 || x > s.Max {
		s.Max = x
	}
	s.Count++
	s.Sum += x
}

// Summarize adds 0, 1, ..., n-1 (mod 1000) to one Stats per last digit
// and returns the Stats of the numbers ending in 0.
func Summarize(n int) Stats {
	byDigit := make([]Stats, 10, 10+n) // on the heap: its size is not constant
	for i := 0; i < n; i++ {
		byDigit[i%10].Add(int64(i % 1000))
	}
	return byDigit[0]
}

// Parallel runs work(n) in each of g goroutines and returns the results.
func Parallel[T any](g, n int, work func(int) T) []T {
	results := make(chan T)
	for range g {
		go func() { results <- work(n) }()
	}
	out := make([]T, g)
	for i := range out {
		out[i] = <-results
	}
	return out
}
