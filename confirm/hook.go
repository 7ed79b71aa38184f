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
	// at holds, for each side k in mask, the expression whose address is
	// access k's location ("": not known before the statement), so that
	// the hook holds a goroutine only for one at the same address.
	at [2]string
	// after is the byte offset just past a simple statement, where a call
	// says that its accesses are done (-1: none; see doneAfter).
	after int
}

// placeHooks finds the statements before which the hooks of a race's two
// accesses go, or says why they cannot go anywhere that keeps line numbers
// and holds the goroutine just before the access.
func placeHooks(accesses [2]Position, field string, forbidden func(file string) bool) (sites []hookSite, pkg string, err error) {
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
		stmt, err := pf.statementBefore(a)
		if err != nil {
			return nil, "", err
		}
		off := int(stmt.Pos()) - pf.tok.Base()
		i := slices.IndexFunc(sites, func(s hookSite) bool { return s.file == a.File && s.offset == off })
		if i < 0 {
			i = len(sites)
			sites = append(sites, hookSite{file: a.File, offset: off, after: -1})
			if doneAfter(stmt) {
				sites[i].after = int(stmt.End()) - pf.tok.Base()
			}
		}
		sites[i].mask |= 1 << k
		sites[i].at[k] = pf.addressBefore(a, stmt, field)
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

// path returns the nodes that enclose position p, innermost first.
func (pf *parsedFile) path(p Position) ([]ast.Node, error) {
	if p.Line < 1 || p.Line > pf.tok.LineCount() || p.Column < 1 {
		return nil, fmt.Errorf("%s: no such position in the file", p)
	}
	off := int(pf.tok.LineStart(p.Line)) - pf.tok.Base() + p.Column - 1
	if off >= pf.tok.Size() {
		return nil, fmt.Errorf("%s: no such position in the file", p)
	}
	pos := pf.tok.Pos(off)
	path, _ := astutil.PathEnclosingInterval(pf.ast, pos, pos)
	return path, nil
}

// statementBefore returns the statement before which the hook of the
// access at p goes: the innermost statement of a block (or of a case's
// body) that holds the access. It must start on the access's line, so
// that the hook keeps line numbers and runs each time just before the
// access; the statement's work before the access (calls in its other
// operands) then runs after the hook.
func (pf *parsedFile) statementBefore(p Position) (ast.Stmt, error) {
	path, err := pf.path(p)
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(path); i++ {
		stmt, ok := path[i].(ast.Stmt)
		if !ok || !inStatementList(stmt, path[i+1]) {
			continue
		}
		if line := pf.tok.Line(stmt.Pos()); line != p.Line {
			return nil, fmt.Errorf("%s is inside a statement that starts on line %d: a hook there would move lines or run before other statements", p, line)
		}
		if i > 0 && loopHeader(stmt, path[i-1]) {
			return nil, fmt.Errorf("%s is in the header of a loop, which runs each iteration: a hook before the loop would hold only the first", p)
		}
		return stmt, nil
	}
	return nil, fmt.Errorf("%s is not inside a statement of a function body", p)
}

// addressBefore returns the expression whose address the hook before stmt
// takes as the location of the access at p to the raced field ("": none,
// or the race is not on a field). It is the access's selector when that
// names the field (a method value i.Foo looks the same to the parser, and
// &i.Foo would not compile), is a chain of variables, fields and pointer
// indirections (e.prev.next), and the part of stmt that runs
// before the access calls and receives nothing: evaluating &chain before
// stmt then reads only what stmt reads (e.prev) and runs no code of the
// program out of order; a nil pointer on the way panics on the same line,
// at the hook rather than in stmt. A chain rooted at a variable that stmt
// declares (an if's init) has none before stmt.
func (pf *parsedFile) addressBefore(p Position, stmt ast.Stmt, field string) string {
	path, err := pf.path(p)
	if err != nil || len(path) < 3 || field == "" {
		return ""
	}
	sel, ok := path[1].(*ast.SelectorExpr)
	if !ok || path[0] != sel.Sel || sel.Sel.Name != field {
		return ""
	}
	if root := chainRoot(sel.X); root == nil || declares(stmt, root.Name) {
		return ""
	}
	if call, ok := path[2].(*ast.CallExpr); ok && call.Fun == sel {
		return "" // a method or function called, not a field
	}
	if pf.tok.Line(sel.Pos()) != pf.tok.Line(sel.End()) || !sideEffectFree(head(stmt)) {
		return ""
	}
	return string(pf.src[pf.tok.Offset(sel.Pos()):pf.tok.Offset(sel.End())])
}

// chainRoot returns the variable x is, or whose fields and pointer
// indirections x is (an expression with an address that takes no code of
// the program to find), or nil if x is not such a chain.
func chainRoot(x ast.Expr) *ast.Ident {
	switch x := x.(type) {
	case *ast.Ident:
		if x.Name != "_" {
			return x
		}
	case *ast.SelectorExpr:
		return chainRoot(x.X)
	case *ast.StarExpr:
		return chainRoot(x.X)
	case *ast.ParenExpr:
		return chainRoot(x.X)
	}
	return nil
}

// declares says whether stmt's init declares name.
func declares(stmt ast.Stmt, name string) bool {
	var init ast.Stmt
	switch s := stmt.(type) {
	case *ast.IfStmt:
		init = s.Init
	case *ast.SwitchStmt:
		init = s.Init
	case *ast.TypeSwitchStmt:
		init = s.Init
	case *ast.ForStmt:
		init = s.Init
	}
	assign, ok := init.(*ast.AssignStmt)
	if !ok || assign.Tok != token.DEFINE {
		return false
	}
	return slices.ContainsFunc(assign.Lhs, func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && id.Name == name
	})
}

// head returns the parts of stmt evaluated before its first nested
// statement: an if's or switch's init and condition, a loop's init or
// range expression, a whole simple statement.
func head(stmt ast.Stmt) []ast.Node {
	switch s := stmt.(type) {
	case *ast.IfStmt:
		return []ast.Node{s.Init, s.Cond}
	case *ast.SwitchStmt:
		return []ast.Node{s.Init, s.Tag}
	case *ast.TypeSwitchStmt:
		return []ast.Node{s.Init, s.Assign}
	case *ast.ForStmt:
		return []ast.Node{s.Init}
	case *ast.RangeStmt:
		return []ast.Node{s.X}
	}
	return []ast.Node{stmt}
}

// sideEffectFree says whether nodes call nothing (a conversion counts as
// a call: the parser cannot tell them apart) and receive nothing.
func sideEffectFree(nodes []ast.Node) bool {
	free := true
	for _, n := range nodes {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr, *ast.FuncLit:
				free = false
			case *ast.UnaryExpr:
				free = free && n.Op != token.ARROW
			}
			return free
		})
	}
	return free
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

// doneAfter says whether a call after stmt, on the line where it ends,
// runs right after its accesses: stmt is a simple statement (or a go or
// defer, whose operands are evaluated there), which nothing leaves early
// and which holds no statements of its own.
func doneAfter(stmt ast.Stmt) bool {
	switch stmt.(type) {
	case *ast.AssignStmt, *ast.IncDecStmt, *ast.ExprStmt, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt:
		return true
	}
	return false
}

// settle is how long, once the hooks have met, the goroutine that goes
// second waits for the first, and the first, after its statement, for the
// second, when the other's statement has no call after it (doneAfter) to
// say that its accesses are done. It is short, as a third goroutine let go
// by the same event (a close both wait for) may race on the location in
// the meantime, and the race detector, having reported that race, forgets
// the location's accesses (testdata/races/loop_done_channel_racy: 1 of 3
// pairs confirmed directed with 1ms, 3 of 3 with 50µs, in two runs each).
// When the calls come, the two go in lockstep: the first's access, then
// the second's before the first goes on to touch the location again (the
// race detector keeps only each goroutine's last access to it, and would
// pair the second's access with that later one).
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
	"unsafe"
)

// The hook's state, which only the functions below touch, with plain
// loads and stores that //go:norace keeps from the race detector: for each
// access k of the race, since when a goroutine waits there (0: none), at
// which address (0: unknown) and whether a call after its statement will
// say when its accesses are done; when a goroutine at the other access
// came for it, how often one came at another address and went on, and how
// often one waited in vain; whether the two sides have met (and at one
// known address), which side goes first, whether a call after each side's
// statement will say that its accesses are done once they met (chordgoDone),
// and whether it did.
var (
	chordgoWaiting   [2]int64
	chordgoAt        [2]uintptr
	chordgoWaitDone  [2]bool
	chordgoCame      [2]int64
	chordgoElsewhere [2]int
	chordgoVain      [2]int
	chordgoMet       bool
	chordgoSameAt    bool
	chordgoFirst     int
	chordgoWillSay   [2]bool
	chordgoSaid      [2]bool
)

// chordgoEpoch is released by every hook and acquired by none: the
// release orders nothing, but starts a new epoch of the goroutine, so that
// the race detector records the statement's accesses though the goroutine
// touched the location since its last synchronization. Within an epoch it
// keeps a goroutine's first access to a location and would report that
// one (testdata/confirm/order: x++ right after x = 1).
var chordgoEpoch byte

// chordgoHeldFirst says which side goes first when they meet: the held
// one ({{.HeldFirstEnv}}=1) or the later one. It is read once, while the
// package is initialized.
var chordgoHeldFirst = chordgoEnv({{printf "%q" .HeldFirstEnv}}) == "1"

func chordgoEnv(name string) string {
	v, _ := syscall.Getenv(name)
	return v
}

// chordgoHook holds a goroutine at each access of the race (bit k of
// sides: access k, whose location at0 or at1 points to, nil if not known;
// done: chordgoDone follows the statement) until a goroutine reaches the
// other access at the same address (or at one not known), or {{.Wait}} has
// passed ({{.VainWaits}} times at most per access); then one of the two
// goes first (chordgoHeldFirst), and the other right after the first's
// statement if chordgoDone follows it, or else a moment after. A goroutine
// that comes to the other access at another address goes on, and the held
// one waits for the next. Once the sides have met, every goroutine passes.
// The race detector sees none of this: the hook's state is read and
// written without sync/atomic, in //go:norace functions, and the
// runtime's clock, runtime.Gosched and a raw write(2) are no
// synchronization to it, so the hook orders no accesses of the program and
// hides no race. Without atomic
// instructions two goroutines may, now and then, wait at one access at
// once; both go when the other side comes.
//
//go:norace
func chordgoHook(sides uint8, at0, at1 any, done bool) {
	runtime.RaceRelease(unsafe.Pointer(&chordgoEpoch))
	at := [2]uintptr{chordgoAddress(&at0), chordgoAddress(&at1)}
	for side := 0; side < 2; side++ {
		if chordgoMet {
			return
		}
		if sides&(1<<side) == 0 {
			continue
		}
		start := chordgoNanotime()
		if chordgoWaiting[1-side] != 0 {
			if other := chordgoAt[1-side]; other == 0 || at[side] == 0 || other == at[side] {
				chordgoCame[1-side] = start
				chordgoSameAt = other != 0 && other == at[side]
				chordgoWillSay[side], chordgoWillSay[1-side] = done, chordgoWaitDone[1-side]
				chordgoFirst = side
				if chordgoHeldFirst {
					chordgoFirst = 1 - side
				}
				chordgoMet = true
				if chordgoHeldFirst {
					chordgoFollow(start)
				}
				return
			}
			chordgoElsewhere[1-side]++
			continue
		}
		if chordgoWaiting[side] != 0 || chordgoVain[side] >= {{.VainWaits}} {
			continue
		}
		chordgoCame[side] = 0
		chordgoElsewhere[side] = 0
		chordgoAt[side], chordgoWaitDone[side] = at[side], done
		chordgoWaiting[side] = start
		for chordgoCame[side] == 0 && chordgoNanotime()-start < {{.WaitNanos}} {
			runtime.Gosched()
		}
		chordgoWaiting[side] = 0
		came := chordgoCame[side]
		if came != 0 && !chordgoHeldFirst {
			chordgoFollow(came)
		}
		msg := append([]byte({{printf "%q" .Prefix}}), chordgoSides[side]...)
		msg = append(msg, " arrived first and waited "...)
		if came == 0 {
			chordgoVain[side]++
			msg = strconv.AppendFloat(msg, float64(chordgoNanotime()-start)/1e6, 'f', 1, 64)
			msg = append(msg, "ms; "...)
			msg = append(msg, chordgoSides[1-side]...)
			msg = append(msg, " did not arrive"...)
			if n := chordgoElsewhere[side]; n > 0 {
				msg = append(msg, " at its address (it came "...)
				msg = strconv.AppendInt(msg, int64(n), 10)
				msg = append(msg, " times at another)"...)
			}
		} else {
			msg = strconv.AppendFloat(msg, float64(came-start)/1e6, 'f', 1, 64)
			msg = append(msg, "ms for "...)
			msg = append(msg, chordgoSides[1-side]...)
			if chordgoSameAt {
				msg = append(msg, " at the same address"...)
			}
			if chordgoHeldFirst {
				msg = append(msg, "; it went first"...)
			} else {
				msg = append(msg, ", which went first"...)
			}
		}
		msg = append(msg, '\n')
		syscall.RawSyscall(syscall.SYS_WRITE, 2, uintptr(unsafe.Pointer(&msg[0])), uintptr(len(msg)))
		return
	}
}

// chordgoFollow holds the goroutine that goes second, from the meeting
// (since), until the first says its statement is done ({{.Wait}} at most),
// or for {{.Settle}} if nothing will say so.
//
//go:norace
func chordgoFollow(since int64) {
	chordgoAwait(chordgoFirst, since)
}

// chordgoAwait spins until side says its statement is done, or since is
// {{.Wait}} ago, or {{.Settle}} if side will not say so.
//
//go:norace
func chordgoAwait(side int, since int64) {
	bound := int64({{.SettleNanos}})
	if chordgoWillSay[side] {
		bound = {{.WaitNanos}}
	}
	for !chordgoSaid[side] && chordgoNanotime()-since < bound {
		runtime.Gosched()
	}
}

// chordgoDone follows a statement with hooks (bit k of sides: access k).
// Once the sides have met, the first to go says it is done, and waits for
// the second's statement (or {{.Settle}}), so that it does not touch the
// location again before the second's access: the race detector would then
// pair that later access with the second's. The second says it is done.
//
//go:norace
func chordgoDone(sides uint8) {
	if !chordgoMet {
		return
	}
	first, second := chordgoFirst, 1-chordgoFirst
	switch {
	case sides&(1<<first) != 0 && !chordgoSaid[first]:
		chordgoSaid[first] = true
		chordgoAwait(second, chordgoNanotime())
	case sides&(1<<second) != 0:
		chordgoSaid[second] = true
	}
}

// chordgoNanotime is the runtime's monotonic clock. The hook's loops call
// only it and runtime.Gosched, which the race detector does not
// instrument: an instrumented call (time.Now) in a loop that spins for
// milliseconds fills the race detector's trace, and its reset then
// forgets the accesses every goroutine made before.
//
//go:linkname chordgoNanotime runtime.nanotime
func chordgoNanotime() int64

// chordgoAddress returns the pointer an interface holds (0 for nil): its
// data word.
//
//go:norace
func chordgoAddress(p *any) uintptr { return (*[2]uintptr)(unsafe.Pointer(p))[1] }

var chordgoSides = [2]string{ {{- printf "%q" (index .Sides 0)}}, {{printf "%q" (index .Sides 1) -}} }
`))

// heldFirstEnv is the environment variable that makes a directed run's
// held goroutine go first when the other comes ("1"), rather than the
// other. Neither order suits every race: the race detector keeps each
// goroutine's last access to a location, and after reporting a race on it
// forgets them all, so the access that goes first must not race with what
// the other goroutine did there before (testdata/confirm/relink: the
// goroutine held at its write, having read the location before, must go
// second).
const heldFirstEnv = "CHORDGO_HELD_FIRST"

// schedulePrefix begins the lines a directed run's hook prints.
const schedulePrefix = "chordgo-schedule: "

// hookCall is the statement inserted before an access's statement.
func hookCall(s hookSite) string {
	call := "chordgoHook(" + strconv.Itoa(int(s.mask))
	for _, at := range s.at {
		if at == "" {
			call += ", nil"
		} else {
			call += ", &" + at
		}
	}
	return call + ", " + strconv.FormatBool(s.after >= 0) + "); "
}

// doneCall is the statement inserted after a simple statement with hooks.
func doneCall(s hookSite) string { return "; chordgoDone(" + strconv.Itoa(int(s.mask)) + ")" }

// writeOverlay writes, into dir, copies of the accessed files with the
// hooks inserted and the file that declares the hook, and the overlay
// file for go build -overlay; it returns the overlay file's name.
func writeOverlay(dir string, sites []hookSite, pkg string, sides [2]string, wait time.Duration) (string, error) {
	edits := map[string][]overlay.Insertion{}
	allTests := true
	for _, s := range sites {
		edits[s.file] = append(edits[s.file], overlay.Insertion{Offset: s.offset, Text: hookCall(s)})
		if s.after >= 0 {
			edits[s.file] = append(edits[s.file], overlay.Insertion{Offset: s.after, Text: doneCall(s)})
		}
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
		"SettleNanos": settle.Nanoseconds(), "Settle": settle.String(), "Sides": sides, "Prefix": schedulePrefix,
		"VainWaits": vainWaits, "HeldFirstEnv": heldFirstEnv,
	})
	if err != nil {
		return "", err
	}
	added := map[string][]byte{filepath.Join(filepath.Dir(sites[0].file), hookName): hook.Bytes()}
	overlayFile := filepath.Join(dir, "overlay.json")
	return overlayFile, overlay.Write(overlayFile, dir, edits, added)
}
