package confirm

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"time"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/chordgo/chordgo/internal/overlay"
)

// A hookSite is where a directed run holds a goroutine: before the
// statement, on its line, that makes the accesses of the sides in mask
// (bit k: access k of the race).
type hookSite struct {
	file   string
	offset int // byte offset of the statement in the file
	mask   uint8
}

// placeHooks finds the statements before which the hooks of a race's two
// accesses go, or says why they cannot go anywhere that keeps line numbers
// and holds the goroutine just before the access.
func placeHooks(accesses [2]Position, forbidden func(file string) bool) (sites []hookSite, pkg string, err error) {
	files := map[string]*parsedFile{}
	for k, a := range accesses {
		if forbidden(a.File) {
			return nil, "", fmt.Errorf("%s is in GOROOT or the module cache, which go build -overlay cannot replace", a)
		}
		pf, ok := files[a.File]
		if !ok {
			if pf, err = parseFile(a.File); err != nil {
				return nil, "", err
			}
			files[a.File] = pf
		}
		if pkg != "" && pf.ast.Name.Name != pkg {
			return nil, "", fmt.Errorf("the accesses are in packages %s and %s, which would need one hook shared between them", pkg, pf.ast.Name.Name)
		}
		pkg = pf.ast.Name.Name
		if k == 1 && filepath.Dir(a.File) != filepath.Dir(accesses[0].File) {
			return nil, "", fmt.Errorf("the accesses are in directories %s and %s, which would need one hook shared between them", filepath.Dir(accesses[0].File), filepath.Dir(a.File))
		}
		off, err := pf.statementBefore(a)
		if err != nil {
			return nil, "", err
		}
		i := slices.IndexFunc(sites, func(s hookSite) bool { return s.file == a.File && s.offset == off })
		if i < 0 {
			i = len(sites)
			sites = append(sites, hookSite{file: a.File, offset: off})
		}
		sites[i].mask |= 1 << k
	}
	return sites, pkg, nil
}

type parsedFile struct {
	fset *token.FileSet
	ast  *ast.File
	tok  *token.File
	src  []byte
}

func parseFile(name string) (*parsedFile, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	return &parsedFile{fset: fset, ast: f, tok: fset.File(f.Pos()), src: src}, nil
}

// statementBefore returns the offset of the statement before which the
// hook of the access at p goes: the innermost statement of a block (or of
// a case's body) that holds the access. It must start on the access's
// line, so that the hook keeps line numbers and runs each time just
// before the access; the statement's work before the access (calls in its
// other operands) then runs after the hook.
func (pf *parsedFile) statementBefore(p Position) (int, error) {
	if p.Line < 1 || p.Line > pf.tok.LineCount() || p.Column < 1 {
		return 0, fmt.Errorf("%s: no such position in the file", p)
	}
	off := int(pf.tok.LineStart(p.Line)) - pf.tok.Base() + p.Column - 1
	if off >= pf.tok.Size() {
		return 0, fmt.Errorf("%s: no such position in the file", p)
	}
	pos := pf.tok.Pos(off)
	path, _ := astutil.PathEnclosingInterval(pf.ast, pos, pos)
	for i := 0; i+1 < len(path); i++ {
		stmt, ok := path[i].(ast.Stmt)
		if !ok || !inStatementList(stmt, path[i+1]) {
			continue
		}
		if line := pf.tok.Line(stmt.Pos()); line != p.Line {
			return 0, fmt.Errorf("%s is inside a statement that starts on line %d: a hook there would move lines or run before other statements", p, line)
		}
		if i > 0 && loopHeader(stmt, path[i-1]) {
			return 0, fmt.Errorf("%s is in the header of a loop, which runs each iteration: a hook before the loop would hold only the first", p)
		}
		return int(stmt.Pos()) - pf.tok.Base(), nil
	}
	return 0, fmt.Errorf("%s is not inside a statement of a function body", p)
}

// inStatementList says whether stmt is one of parent's list of
// statements, before which another statement can go.
func inStatementList(stmt ast.Stmt, parent ast.Node) bool {
	switch stmt.(type) {
	case *ast.CaseClause, *ast.CommClause:
		return false
	}
	switch p := parent.(type) {
	case *ast.BlockStmt:
		return slices.Contains(p.List, stmt)
	case *ast.CaseClause:
		return slices.Contains(p.Body, stmt)
	case *ast.CommClause:
		return slices.Contains(p.Body, stmt)
	}
	return false
}

// loopHeader says whether child, the node under loop on the path to the
// access, is a part of the loop's header that runs each iteration.
func loopHeader(loop ast.Stmt, child ast.Node) bool {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return child != l.Body && child != l.Init && child != nil
	case *ast.RangeStmt:
		return child == l.Key || child == l.Value
	}
	return false
}

// settle is how long the goroutine that reached its hook first waits,
// after the other arrived, so that the other's access goes first: the
// first is often the one whose goroutine ends (or whose test returns)
// right after its access. It is short, as a third goroutine let go by the
// same event (a close both wait for) may race on the location in the
// meantime, and the race detector, having reported that race, forgets the
// location's accesses (testdata/races/loop_done_channel_racy: 1 of 3
// pairs confirmed directed with 1ms, 3 of 3 with 50µs, in two runs each).
const settle = 50 * time.Microsecond

// vainWaits bounds how often a directed run's hook holds a goroutine at
// each access and gives up: the first arrivals are often in code that runs
// before the other goroutine exists (a setup in main, or the first
// iteration of a loop), so the hook tries again for a later one, and a
// race whose other side never comes costs at most this many waits.
const vainWaits = 5

var hookTemplate = template.Must(template.New("hook").Parse(`// Code generated by chordgo confirm for a directed run; DO NOT EDIT.

package {{.Package}}

import (
	"runtime"
	"strconv"
	"syscall"
	"time"
	"unsafe"
)

// The hook's state, which only chordgoHook touches, with plain loads and
// stores that //go:norace keeps from the race detector: for each access k
// of the race, since when a goroutine waits there (0: none), when a
// goroutine at the other access came for it, and how often one waited in
// vain; and whether the two sides have met.
var (
	chordgoWaiting [2]int64
	chordgoCame    [2]int64
	chordgoVain    [2]int
	chordgoMet     bool
)

// chordgoHook holds a goroutine at each access of the race (bit k of
// sides: access k) until a goroutine reaches the other access, or
// {{.Wait}} has passed ({{.VainWaits}} times at most per access); then the
// later one goes first, and the held one a moment after. Once the sides
// have met, every goroutine passes. The race detector sees none of this:
// the hook's state is read and written without sync/atomic, in a
// //go:norace function, and time, runtime.Gosched and a raw write(2) are
// no synchronization to it, so the hook orders no accesses of the program
// and hides no race. Without atomic instructions two goroutines may, now
// and then, wait at one access at once; both go when the other side comes.
//
//go:norace
func chordgoHook(sides uint8) {
	for side := 0; side < 2; side++ {
		if chordgoMet {
			return
		}
		if sides&(1<<side) == 0 {
			continue
		}
		start := time.Now().UnixNano()
		if chordgoWaiting[1-side] != 0 {
			chordgoCame[1-side] = start
			chordgoMet = true
			return // the held goroutine waits a moment more: this one goes first
		}
		if chordgoWaiting[side] != 0 || chordgoVain[side] >= {{.VainWaits}} {
			continue
		}
		chordgoCame[side] = 0
		chordgoWaiting[side] = start
		for chordgoCame[side] == 0 && time.Now().UnixNano()-start < {{.WaitNanos}} {
			runtime.Gosched()
		}
		chordgoWaiting[side] = 0
		came := chordgoCame[side]
		msg := append([]byte({{printf "%q" .Prefix}}), chordgoSides[side]...)
		msg = append(msg, " arrived first and waited "...)
		if came == 0 {
			chordgoVain[side]++
			msg = strconv.AppendFloat(msg, float64(time.Now().UnixNano()-start)/1e6, 'f', 1, 64)
			msg = append(msg, "ms; "...)
			msg = append(msg, chordgoSides[1-side]...)
			msg = append(msg, " did not arrive\n"...)
		} else {
			for time.Now().UnixNano()-came < {{.SettleNanos}} {
				runtime.Gosched()
			}
			msg = strconv.AppendFloat(msg, float64(came-start)/1e6, 'f', 1, 64)
			msg = append(msg, "ms for "...)
			msg = append(msg, chordgoSides[1-side]...)
			msg = append(msg, ", which then went first\n"...)
		}
		syscall.RawSyscall(syscall.SYS_WRITE, 2, uintptr(unsafe.Pointer(&msg[0])), uintptr(len(msg)))
		return
	}
}

var chordgoSides = [2]string{ {{- printf "%q" (index .Sides 0)}}, {{printf "%q" (index .Sides 1) -}} }
`))

// schedulePrefix begins the lines a directed run's hook prints.
const schedulePrefix = "chordgo-schedule: "

// hookCall is the statement inserted before an access's statement.
func hookCall(mask uint8) string { return "chordgoHook(" + strconv.Itoa(int(mask)) + "); " }

// writeOverlay writes, into dir, copies of the accessed files with the
// hooks inserted and the file that declares the hook, and the overlay
// file for go build -overlay; it returns the overlay file's name.
func writeOverlay(dir string, sites []hookSite, pkg string, sides [2]string, wait time.Duration) (string, error) {
	edits := map[string][]overlay.Insertion{}
	allTests := true
	for _, s := range sites {
		edits[s.file] = append(edits[s.file], overlay.Insertion{Offset: s.offset, Text: hookCall(s.mask)})
		allTests = allTests && strings.HasSuffix(s.file, "_test.go")
	}
	// A hook in a _test.go file is seen by both the package's test files
	// and, for package p_test, only by them.
	hookName := "zz_chordgo_hook.go"
	if allTests {
		hookName = "zz_chordgo_hook_test.go"
	}
	var hook bytes.Buffer
	err := hookTemplate.Execute(&hook, map[string]any{
		"Package": pkg, "Wait": wait.String(), "WaitNanos": wait.Nanoseconds(),
		"SettleNanos": settle.Nanoseconds(), "Sides": sides, "Prefix": schedulePrefix, "VainWaits": vainWaits,
	})
	if err != nil {
		return "", err
	}
	added := map[string][]byte{filepath.Join(filepath.Dir(sites[0].file), hookName): hook.Bytes()}
	overlayFile := filepath.Join(dir, "overlay.json")
	return overlayFile, overlay.Write(overlayFile, dir, edits, added)
}
