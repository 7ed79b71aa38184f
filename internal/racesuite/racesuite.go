package racesuite

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Suite is a prepared copy of Go's race-detector tests.
type Suite struct {
	Dir   string
	Tests []Test // every func TestRace*/TestNoRace* in the copied files, sorted by file then line
}

// Test is one TestRace* or TestNoRace* function of the suite.
type Test struct {
	Name          string // e.g. "TestRaceIntRWGlobalFuncs"
	File          string // absolute path of the copied file
	Line, EndLine int    // lines of the func declaration (start, closing brace)
	WantRace      bool   // true for TestRace*, false for TestNoRace*
	Excluded      string // non-empty: why a static analyzer cannot judge this test (it is not scored)
}

// skippedFiles are not copied: cgo_test.go runs a cgo program in a subprocess
// (cgo_test_main.go), and synctest_test.go imports internal/synctest, which
// only builds inside GOROOT.
var skippedFiles = map[string]bool{
	"cgo_test.go":      true,
	"cgo_test_main.go": true,
	"synctest_test.go": true,
}

const (
	reasonFinalizer = "finalizer goroutine run by the GC"
	reasonCgo       = "cgo in a subprocess"
	reasonFileIO    = "happens-before through the OS (file I/O)"
	reasonNetwork   = "happens-before through the network (net/http)"
	reasonUnsafe    = "race only through unsafe.Pointer arithmetic"
	reasonSkip      = "t.Skip upstream"
	reasonSynctest  = "internal/synctest bubble"
)

// excluded lists the tests whose outcome hinges on something outside the
// program text a static analyzer sees. The cgo and synctest entries are
// documentation only: their files are not copied.
var excluded = map[string]string{
	"TestNoRaceFin":           reasonFinalizer,
	"TestNoRaceFinGlobal":     reasonFinalizer,
	"TestRaceFin":             reasonFinalizer,
	"TestNoRaceCleanup":       reasonFinalizer,
	"TestRaceBetweenCleanups": reasonFinalizer,

	"TestNoRaceCgoSync": reasonCgo,

	"TestNoRaceIOFile": reasonFileIO,
	"TestNoRaceIOHttp": reasonNetwork,

	"TestRaceUnsafePtrRW": reasonUnsafe,

	// #72925; also caught by skipsAtTop, kept here so the reason survives
	// the day upstream drops the t.Skip before fixing the test.
	"TestRaceRangeFuncIterator":   reasonSkip,
	"TestNoRaceRangeFuncIterator": reasonSkip,

	"TestRaceSynctestGoroutinesExit":      reasonSynctest,
	"TestNoRaceSynctestGoroutinesExit":    reasonSynctest,
	"TestRaceSynctestGoroutinesRecv":      reasonSynctest,
	"TestRaceSynctestGoroutinesUnblocked": reasonSynctest,
	"TestRaceSynctestGoroutinesSleep":     reasonSynctest,
	"TestRaceSynctestTimers":              reasonSynctest,
}

// Prepare copies the suite into dir (which must exist and be empty) as a
// standalone module named "racesuite" and returns a description of its test
// functions.
func Prepare(dir string) (*Suite, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("racesuite: %w", err)
	}
	if entries, err := os.ReadDir(dir); err != nil {
		return nil, fmt.Errorf("racesuite: target directory: %w", err)
	} else if len(entries) > 0 {
		return nil, fmt.Errorf("racesuite: target directory %s is not empty", dir)
	}

	goroot, err := findGOROOT()
	if err != nil {
		return nil, err
	}
	src := filepath.Join(goroot, "src", "runtime", "race", "testdata")
	names, err := filepath.Glob(filepath.Join(src, "*_test.go"))
	if err != nil {
		return nil, fmt.Errorf("racesuite: listing %s: %w", src, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("racesuite: no *_test.go files in %s", src)
	}

	lang, err := langVersion(goroot)
	if err != nil {
		return nil, err
	}
	gomod := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(gomod, []byte("module racesuite\n\ngo "+lang+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("racesuite: writing %s: %w", gomod, err)
	}

	suite := &Suite{Dir: dir}
	fset := token.NewFileSet()
	for _, name := range names { // Glob sorts, so Tests come out sorted by file
		base := filepath.Base(name)
		if skippedFiles[base] {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("racesuite: reading %s: %w", name, err)
		}
		dst := filepath.Join(dir, base)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return nil, fmt.Errorf("racesuite: writing %s: %w", dst, err)
		}
		f, err := parser.ParseFile(fset, dst, data, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("racesuite: parsing %s: %w", dst, err)
		}
		suite.Tests = append(suite.Tests, testsIn(fset, dst, f)...)
	}
	return suite, nil
}

// testsIn returns the file's tests; Decls are in source order.
func testsIn(fset *token.FileSet, file string, f *ast.File) []Test {
	var tests []Test
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil {
			continue
		}
		name := fn.Name.Name
		wantRace := strings.HasPrefix(name, "TestRace")
		if !wantRace && !strings.HasPrefix(name, "TestNoRace") {
			continue
		}
		reason := excluded[name]
		if reason == "" && skipsAtTop(fn) {
			reason = reasonSkip
		}
		tests = append(tests, Test{
			Name:     name,
			File:     file,
			Line:     fset.Position(fn.Pos()).Line,
			EndLine:  fset.Position(fn.End()).Line,
			WantRace: wantRace,
			Excluded: reason,
		})
	}
	return tests
}

// skipsAtTop reports whether the test's first statement is t.Skip, t.Skipf or
// t.SkipNow on its own *testing.T parameter. Upstream disables broken tests
// that way, and such a test's name no longer tells whether it races, so a new
// Go release's skips are excluded without editing the table. Skips behind a
// condition (testing.Short, GOOS) are deliberately not caught: the test still
// runs somewhere, so its verdict stands.
func skipsAtTop(fn *ast.FuncDecl) bool {
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) != 1 || len(fn.Body.List) == 0 {
		return false
	}
	stmt, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	recv, ok := sel.X.(*ast.Ident)
	if !ok || recv.Name != params[0].Names[0].Name {
		return false
	}
	switch sel.Sel.Name {
	case "Skip", "Skipf", "SkipNow":
		return true
	}
	return false
}

// findGOROOT returns the GOROOT of the toolchain that built this program, so
// the suite matches the runtime and standard library the analysis loads.
// runtime.GOROOT is empty in -trimpath builds; then ask the go command.
func findGOROOT() (string, error) {
	//lint:ignore SA1019 the go env fallback below covers what the deprecation is about
	if goroot := runtime.GOROOT(); goroot != "" {
		return goroot, nil
	}
	var stderr bytes.Buffer
	cmd := exec.Command("go", "env", "GOROOT")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("racesuite: go env GOROOT: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	goroot := strings.TrimSpace(string(out))
	if goroot == "" {
		return "", errors.New("racesuite: go env GOROOT printed nothing")
	}
	return goroot, nil
}

// langVersion returns the language version ("1.26") of the running toolchain
// for the go.mod go line: the copied tests use that release's features
// (range-over-func, per-iteration loop variables), so an older line would not
// type-check them.
func langVersion(goroot string) (string, error) {
	candidates := []string{runtime.Version()} // "go1.26.8", or "devel ..." for tip builds
	if data, err := os.ReadFile(filepath.Join(goroot, "VERSION")); err == nil {
		first, _, _ := strings.Cut(string(data), "\n")
		candidates = append(candidates, strings.TrimSpace(first))
	}
	// Compiled in even for devel builds: the last tag is the current release.
	if tags := build.Default.ReleaseTags; len(tags) > 0 {
		candidates = append(candidates, tags[len(tags)-1])
	}
	for _, v := range candidates {
		if lang := version.Lang(v); lang != "" {
			return strings.TrimPrefix(lang, "go"), nil
		}
	}
	return "", fmt.Errorf("racesuite: cannot tell the Go language version from %q", candidates)
}
