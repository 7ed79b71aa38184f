package condmustnot

import (
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

const testdataDir = "testdata/condmustnot"

// The testdata programs, loaded and analyzed together once.
var (
	loadOnce  sync.Once
	loaded    *fixture
	loadError error
)

type fixture struct {
	root  string // module root
	facts *pointsto.Facts
	res   *pointsto.Result
	locks *Locksets
}

func load(t *testing.T) *fixture {
	t.Helper()
	loadOnce.Do(func() {
		root, err := filepath.Abs("..")
		if err != nil {
			loadError = err
			return
		}
		prog, err := pointsto.Load(pointsto.Config{Dir: root, Patterns: []string{"./" + testdataDir + "/..."}})
		if err != nil {
			loadError = err
			return
		}
		facts, err := pointsto.Extract(prog)
		if err != nil {
			loadError = err
			return
		}
		a, err := pointsto.NewAnalyzer(facts)
		if err != nil {
			loadError = err
			return
		}
		res, err := a.Run(pointsto.NewSigma())
		if err != nil {
			loadError = err
			return
		}
		loaded = &fixture{root: root, facts: facts, res: res, locks: Compute(facts, res)}
	})
	if loadError != nil {
		t.Fatal(loadError)
	}
	return loaded
}

// accesses returns the E ids on the line of the comment "// @marker" in
// testdata/condmustnot/pkg/main.go.
func (fx *fixture) accesses(t *testing.T, pkg, marker string) []uint32 {
	t.Helper()
	file := filepath.Join(fx.root, testdataDir, pkg, "main.go")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for k, text := range strings.Split(string(src), "\n") {
		if i := strings.Index(text, "// @"); i >= 0 && strings.Fields(text[i+4:])[0] == marker {
			line = k + 1
		}
	}
	if line == 0 {
		t.Fatalf("%s: no marker @%s", pkg, marker)
	}
	var es []uint32
	for e := range uint32(fx.facts.Size(pointsto.DomE)) {
		if p := fx.facts.AccessPos(e); p.Filename == file && p.Line == line {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		t.Fatalf("%s @%s: no access", pkg, marker)
	}
	return es
}

// lockName describes a Held as the test cases spell it: the global or field
// the lock is ("mu", "mu r" when read-held), the global a channel is loaded
// from, or the SSA value's name.
func (fx *fixture) lockName(h Held) string {
	var name string
	if a := fx.locks.flow; h.Ptr >= a.nV {
		return fx.facts.Field(a.entryLocks[h.Ptr-a.nV].field).Name()
	}
	switch v := fx.facts.Value(h.Ptr).(type) {
	case *ssa.Global:
		name = v.Name()
	case *ssa.FieldAddr:
		name = v.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct).Field(v.Field).Name()
	case *ssa.UnOp:
		name = v.Name()
		if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
			name = g.Name()
		}
	default:
		name = v.Name()
	}
	if h.Read {
		name += " r"
	}
	return name
}

// unique is the tests' notion of an object that exists once: a global, or
// an allocation or make(chan) in main.main or a package initializer outside
// loops, and their fields.
func (fx *fixture) unique(o pointsto.Ctx) bool {
	site := fx.facts.Site(fx.facts.Site(fx.res.Contexts.Site(o)).Root)
	switch site.Kind {
	case pointsto.SiteGlobal:
		return true
	case pointsto.SiteAlloc, pointsto.SiteMakeChan:
		instr := site.Value.(ssa.Instruction)
		fn := instr.Parent()
		once := fn.Name() == "main" && fn.Signature.Recv() == nil || fn.Synthetic == "package initializer"
		return once && !inLoop(instr.Block())
	}
	return false
}

// inLoop reports whether b can run again: it is reachable from its successors.
func inLoop(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == b {
			return true
		}
		if !seen[x] {
			seen[x] = true
			stack = append(stack, x.Succs...)
		}
	}
	return false
}
