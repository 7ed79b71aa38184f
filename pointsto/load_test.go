package pointsto

import "testing"

// The runtime's code is not analyzed, so Load builds none: its functions
// are in M without a body, also those with one in the source, and still
// get their models (SetFinalizer's callback: TestAsyncCallbacks); the
// other packages' functions, of the standard library too, keep theirs.
func TestRuntimeNotBuilt(t *testing.T) {
	fx := loadFixture(t, Config{Patterns: []string{"./testdata/pointsto/timer"}})
	f := fx.facts
	for _, tt := range []struct {
		name     string
		analyzed bool
	}{
		{"runtime.SetFinalizer", false}, // a Go body in the source
		{"time.AfterFunc", true},
		{"(*time.Timer).Stop", true},
		{"github.com/chordgo/chordgo/testdata/pointsto/timer.main", true},
	} {
		m, ok := fx.fnNamed(tt.name)
		if !ok {
			t.Errorf("%s is not in M", tt.name)
			continue
		}
		fn := f.Func(m)
		if got := f.Analyzed(m); got != tt.analyzed || IsRuntime(fn) == tt.analyzed || (fn.Blocks != nil) != tt.analyzed {
			t.Errorf("%s: analyzed %v, runtime %v, %d blocks; want analyzed %v", tt.name, got, IsRuntime(fn), len(fn.Blocks), tt.analyzed)
		}
	}
	runtimeFuncs := 0
	for m := range f.Size(DomM) {
		if fn := f.Func(uint32(m)); IsRuntime(fn) {
			runtimeFuncs++
			if fn.Blocks != nil || f.Analyzed(uint32(m)) {
				t.Errorf("%s: the runtime's function has %d blocks, analyzed %v", fn, len(fn.Blocks), f.Analyzed(uint32(m)))
			}
		}
	}
	if runtimeFuncs == 0 {
		t.Error("no function of the runtime in M")
	}
}
