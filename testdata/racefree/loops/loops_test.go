package loops

import "testing"

func TestLoops(t *testing.T) {
	for _, s := range Parallel(2, 1000, SumSquares) {
		if s != 332833500 {
			t.Errorf("SumSquares(1000) = %d, want 332833500", s)
		}
	}
	for _, tr := range Parallel(2, 40, Trace) {
		if tr != 2860000 {
			t.Errorf("Trace(40) = %v, want 2860000", tr)
		}
	}
	for _, s := range Parallel(2, 5000, Summarize) {
		if s != (Stats{Count: 500, Sum: 247500, Min: 0, Max: 990}) {
			t.Errorf("Summarize(5000) = %+v", s)
		}
	}
}

func BenchmarkSumSquares(b *testing.B) {
	for b.Loop() {
		Parallel(2, 1<<16, SumSquares)
	}
}

func BenchmarkMatrix(b *testing.B) {
	for b.Loop() {
		Parallel(2, 64, Trace)
	}
}

func BenchmarkStats(b *testing.B) {
	for b.Loop() {
		Parallel(2, 1<<16, Summarize)
	}
}
