package mhp

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// TestBeforeHandover checks, on functions of one file, which accesses
// BeforeHandover leaves out: every access on a line marked "// before" is
// before its object's hand-over, none on a line marked "// paired".
func TestBeforeHandover(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"branches then send", `
func f(id int, out chan *T) {
	r := &T{}
	if id > 0 {
		r.x = id // before
	} else {
		r.y = id // before
	}
	out <- r
	r.x = 0 // paired
}`},
		{"made anew in each iteration", `
func f(out chan *T) {
	for i := 0; i < 3; i++ {
		r := &T{}
		r.x = i // before
		out <- r
	}
}`},
		{"made once, sent in a loop", `
func f(out chan *T) {
	r := &T{}
	for i := 0; i < 3; i++ {
		r.x = i // paired
		out <- r
	}
}`},
		{"a callee that keeps it", `
func fill(r *T, n int) {
	if n > 0 {
		r.x = n
	}
}
func f(out chan *T) {
	r := &T{}
	fill(r, 1)
	r.y = 2 // before
	out <- r
}`},
		{"a callee that hands it on", `
var last *T
func keep(r *T) { last = r }
func f(out chan *T) {
	r := &T{}
	keep(r)
	r.y = 2 // paired
	out <- r
}`},
		{"a callee that passes it to itself", `
func fill(r *T, n int) {
	if n > 0 {
		fill(r, n-1)
	}
	r.x = n
}
func f(out chan *T) {
	r := &T{}
	fill(r, 2)
	r.y = 2 // paired
	out <- r
}`},
		{"a map sent", `
func f(out chan map[int]int) {
	m := map[int]int{}
	m[1] = 1 // before
	out <- m
	m[2] = 2 // paired
}`},
		{"a closure", `
func f(done chan bool) {
	x := 0
	if len(done) == 0 {
		x = 1 // before
	}
	go func() { done <- x == 1 }()
	x = 3 // paired
}`},
		{"a pointer variable of the loop body, captured", `
func f() {
	for i := 0; i < 3; i++ {
		r := &T{}
		r.x = i // before
		go func() { r.y++ }()
		r.y = 1 // paired
	}
}`},
		{"a captured pointer variable assigned in each iteration", `
func f() {
	var r *T
	for i := 0; i < 3; i++ {
		r = &T{}
		r.x = i // paired
		go func() { r.y++ }()
	}
}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, "p.go", "package p\ntype T struct{ x, y int }\n"+tc.src, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, types.NewPackage("p", ""), []*ast.File{file}, ssa.SanityCheckFunctions)
			if err != nil {
				t.Fatal(err)
			}
			marks := map[int]string{}
			for _, g := range file.Comments {
				for _, c := range g.List {
					marks[fset.Position(c.Pos()).Line] = strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
				}
			}
			hs := NewHandovers()
			seen := map[int]bool{}
			for _, m := range pkg.Members {
				fn, ok := m.(*ssa.Function)
				if !ok {
					continue
				}
				for _, f := range append([]*ssa.Function{fn}, fn.AnonFuncs...) {
					before := hs.BeforeHandover(f)
					for _, b := range f.Blocks {
						for _, instr := range b.Instrs {
							if _, isStore := instr.(*ssa.Store); !isStore && !isMapWrite(instr) {
								continue
							}
							line := fset.Position(instr.Pos()).Line
							want := marks[line]
							seen[line] = true
							if want == "before" && !before[instr] || want == "paired" && before[instr] {
								t.Errorf("line %d (%s): BeforeHandover says %v", line-2, want, before[instr])
							}
						}
					}
				}
			}
			for line := range marks {
				if !seen[line] {
					t.Errorf("line %d (%s): no write found there", line-2, marks[line])
				}
			}
		})
	}
}

func isMapWrite(instr ssa.Instruction) bool {
	_, ok := instr.(*ssa.MapUpdate)
	return ok
}
