package main

import (
	"bytes"
	"runtime"
	"testing"
)

// The heap profile is the peak's: a large allocation dropped before the
// end still sets the live heap the profile was taken at.
func TestPeakHeap(t *testing.T) {
	const size = 64 << 20
	p := watchPeakHeap()
	peak := make([]byte, size)
	for i := range peak {
		peak[i] = byte(i) // make it resident and keep the compiler from dropping it
	}
	runtime.GC()
	p.sample(true)
	runtime.KeepAlive(peak)
	peak = nil
	runtime.GC()
	profile, err := p.stop()
	if err != nil {
		t.Fatal(err)
	}
	if p.largest < size {
		t.Errorf("largest live heap %d bytes, want at least the %d bytes dropped before the end", p.largest, size)
	}
	if !bytes.HasPrefix(profile, []byte{0x1f, 0x8b}) {
		t.Errorf("profile of %d bytes is not a gzipped pprof profile", len(profile))
	}
}
