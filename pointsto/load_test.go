package pointsto

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"testing"
)

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

// dropBodies keeps what go/types wants a body of, and blank-names exactly
// the imports that only the bodies used.
func TestDropBodies(t *testing.T) {
	const src = `package p

import (
	"errors"
	"fmt"
	"internal/abi"
	"math/rand/v2"
	str "strings"
	_ "unsafe"
)

var errX = errors.New("x") // a package-level use

type T struct{ t abi.Type } // a use in a type

func init() { fmt.Println() }

func Generic[E any](e E) E { return e }

func (T) Method() string { return str.ToUpper("") }

func Plain(r *rand.Rand) int { return r.IntN(2) } // a use in a signature

func Assembly()
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	dropBodies(f)
	bodies := map[string]bool{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			bodies[fd.Name.Name] = fd.Body != nil
		}
	}
	wantBodies := map[string]bool{"init": true, "Generic": true, "Method": false, "Plain": false, "Assembly": false}
	if !maps.Equal(bodies, wantBodies) {
		t.Errorf("bodies kept: %v, want %v", bodies, wantBodies)
	}
	names := map[string]string{}
	for _, spec := range f.Imports {
		name := ""
		if spec.Name != nil {
			name = spec.Name.Name
		}
		names[spec.Path.Value] = name
	}
	wantNames := map[string]string{
		`"errors"`:       "",  // used outside the bodies
		`"fmt"`:          "",  // used by init, which keeps its body
		`"internal/abi"`: "",  // used by a type
		`"math/rand/v2"`: "",  // package rand, used by Plain's signature
		`"strings"`:      "_", // only Method's body used str
		`"unsafe"`:       "_",
	}
	if !maps.Equal(names, wantNames) {
		t.Errorf("import names: %v, want %v", names, wantNames)
	}
}
