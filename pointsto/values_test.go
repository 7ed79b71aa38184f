package pointsto

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// buildFunc builds func f of a package made of the declarations decls and
// body as f's body.
func buildFunc(t *testing.T, decls, body string) *ssa.Function {
	t.Helper()
	src := "package p\nvar sink int\nvar keep *byte\nfunc g()\nfunc set(*byte)\n" + decls + "\nfunc f(p bool, n int) {\n" + body + "\n}\n"
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	pkg := types.NewPackage("p", "p")
	ssaPkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, pkg, []*ast.File{file}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	return ssaPkg.Func("f")
}

// sinkStores returns the constants stored to sink by blocks for which keep
// holds, in order.
func sinkStores(fn *ssa.Function, keep func(*ssa.BasicBlock) bool) []int {
	var out []int
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if g, ok := st.Addr.(*ssa.Global); ok && g.Name() == "sink" && keep(b) {
				n, _ := strconv.Atoi(st.Val.(*ssa.Const).Value.ExactString())
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

func TestLiveBlocks(t *testing.T) {
	tests := []struct {
		name, body string
		live       []int // the sink = N stores that may run
	}{
		{"and", "x, y := 0, 0\nif y == 1 && x == 1 { sink = 1 }\nsink = 2", []int{2}},
		{"or", "y := 0\nif y == 0 || p { sink = 1 } else { sink = 2 }", []int{1}},
		{"loop never entered", "for i := 0; i < 0; i++ { sink = 1 }\nsink = 2", []int{2}},
		{"parameter", "if n == 1 { sink = 1 }\nsink = 2", []int{1, 2}},
		{"fresh variable is zero", "var b byte\nif b != 0 { sink = 1; keep = &b }\nsink = 2", []int{2}},
		{"address passed before the load", "var b byte\nset(&b)\nif b != 0 { sink = 1 }\nsink = 2", []int{1, 2}},
		{"overflow wraps", "x := int8(127)\nif x+1 > 0 { sink = 1 } else { sink = 2 }", []int{1, 2}},
		{"value changes around the loop", "x := 0\nfor i := 0; i < n; i++ { if x == 1 { sink = 1 }; x = 1 }\nsink = 2", []int{1, 2}},
		{"constant around the loop", "x := 0\nfor i := 0; i < n; i++ { if x == 1 { sink = 1 }; x = 0 }\nsink = 2", []int{2}},
		{"captured constant", "var z int\nz = 1\ngo func() { if z == 2 { sink = 1 }; sink = 2 }()", []int{2}},
		{"captured after the closure is made", "var z int\ngo func() { if z == 0 { sink = 1 }; sink = 2 }()\nz = 1", []int{1, 2}},
		{"captured and stored twice", "var z int\nz = 1\nif p { z = 2 }\ngo func() { if z == 2 { sink = 1 }; sink = 2 }()", []int{1, 2}},
		{"captured and stored by the closure", "var z int\nz = 1\ngo func() { if z == 2 { sink = 1 }; z = 2; sink = 2 }()", []int{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := buildFunc(t, "", tt.body)
			if len(fn.AnonFuncs) > 0 {
				fn = fn.AnonFuncs[0]
			}
			live := liveBlocks(fn).live
			got := sinkStores(fn, func(b *ssa.BasicBlock) bool { return live[b.Index] })
			if !slices.Equal(got, tt.live) {
				t.Errorf("live stores %v, want %v\n%s", got, tt.live, dump(fn))
			}
		})
	}
}

func TestRepeats(t *testing.T) {
	tests := []struct {
		name, body string
		repeats    bool // whether sink = 1 may run twice in one call
	}{
		{"straight line", "sink = 1", false},
		{"loop of one", "for i := 0; i < 1; i++ { sink = 1 }", false},
		{"loop of one, bound first", "for i := 0; 1 > i; i++ { sink = 1 }", false},
		{"loop of one, <=", "for i := 1; i <= 1; i++ { sink = 1 }", false},
		{"constant bound of one", "m := 1\nfor i := 0; i < m; i++ { sink = 1 }", false},
		{"nested loops of one", "for i := 0; i < 1; i++ { for j := 0; j < 1; j++ { sink = 1 } }", false},
		{"loop of two", "m := 2\nfor i := 0; i < m; i++ { sink = 1 }", true},
		{"unknown bound", "for i := 0; i < n; i++ { sink = 1 }", true},
		{"counter goes back", "for i := 0; i < 1; i++ { sink = 1; i-- }", true},
		{"counter wraps", "for i := int8(100); i < 127; i += 100 { sink = 1 }", true},
		{"inside a longer loop", "for k := 0; k < 3; k++ { for i := 0; i < 1; i++ { sink = 1 } }", true},
		{"loop without a counter", "for { sink = 1; if p { break } }", true},
		{"dead back edge", "for { sink = 1; if 0 == 0 { break } }", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := buildFunc(t, "", tt.body)
			f := &Facts{}
			f.recordLiveness(liveBlocks(fn))
			got := sinkStores(fn, f.Repeats)
			if got := len(got) > 0; got != tt.repeats {
				t.Errorf("Repeats = %v, want %v\n%s", got, tt.repeats, dump(fn))
			}
		})
	}
}

func dump(fn *ssa.Function) string {
	var b strings.Builder
	fn.WriteTo(&b)
	return b.String()
}

func TestCountingLoop(t *testing.T) {
	tests := []struct {
		name, body string
		found      bool // a CountingLoop heads the loop
		next       bool // the body sees Next, not Counter
		increases  bool
	}{
		{"constant bound", "for i := 0; i < 4; i++ { sink = i }", true, false, true},
		{"bound not constant", "for i := 0; i < n; i++ { sink = i }", true, false, true},
		{"bound not constant, <=", "for i := 0; i <= n; i++ { sink = i }", true, false, false},
		{"bound not constant, step 2", "for i := 0; i < n; i += 2 { sink = i }", true, false, false},
		{"constant bound, wraps", "for i := int8(100); i < 127; i += 100 { sink = 1 }", true, false, false},
		{"range over an int, rotated", "for i := range n { sink = i }", false, false, false},
		{"range over a slice", "s := make([]int, n)\nfor i := range s { sink = i }", true, true, true},
		{"range over an array", "var a [4]int\nfor i := range a { sink = i + a[i] }", true, true, true},
		{"counter goes back", "for i := 0; i < n; i++ { sink = i; i-- }", false, false, false},
		{"test on another sum", "for i := 0; i+2 < n; i++ { sink = i }", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := buildFunc(t, "", tt.body)
			f := &Facts{}
			f.recordLiveness(liveBlocks(fn))
			var l *CountingLoop
			for _, b := range fn.Blocks {
				if x := f.Loop(b); x != nil {
					l = x
				}
			}
			if (l != nil) != tt.found {
				t.Fatalf("found = %v, want %v\n%s", l != nil, tt.found, dump(fn))
			}
			if l == nil {
				return
			}
			if (l.Next != nil) != tt.next || l.Increases() != tt.increases {
				t.Errorf("Next = %v, Increases = %v; want %v, %v\n%s", l.Next, l.Increases(), tt.next, tt.increases, dump(fn))
			}
		})
	}
}
