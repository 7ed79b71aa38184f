package pointsto

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// Config says which packages to load, like the arguments of go vet.
type Config struct {
	Patterns []string // as go vet takes them: "./...", import paths, directories
	Dir      string   // working directory for the go command ("" = current)
	Tests    bool     // include test files and test packages (the CLI's default is true)
	Tags     []string // build tags (-tags)
	Run      string   // regexp selecting test roots as `go test -run` does ("" = all)
	// Context, when it ends, stops the go command and SSA construction;
	// Load then returns an error wrapping context.Cause (nil: never).
	Context context.Context
}

// RootKind says how a root function is run.
type RootKind uint8

const (
	Main      RootKind = iota // main.main of a main package (after the package's init)
	Test                      // TestXxx(*testing.T)
	Benchmark                 // BenchmarkXxx(*testing.B)
	Fuzz                      // FuzzXxx(*testing.F)
	Example                   // ExampleXxx() with an output comment
	TestMain                  // TestMain(*testing.M): runs in the main goroutine before the tests
)

func (k RootKind) String() string {
	switch k {
	case Main:
		return "main"
	case Test:
		return "test"
	case Benchmark:
		return "benchmark"
	case Fuzz:
		return "fuzz"
	case Example:
		return "example"
	case TestMain:
		return "testmain"
	}
	return fmt.Sprintf("RootKind(%d)", k)
}

// A Root is a function the Go runtime or the test runner calls.
type Root struct {
	Kind    RootKind
	Func    *ssa.Function
	Program int    // roots with the same Program number run in one process
	Name    string // "main" for Main roots, the test name otherwise
	// Inits are the package initializers that run before the root, in order:
	// the main package's init for Main roots; the init of the internal test
	// package and of the external test package for test roots. Each init calls
	// the inits of the packages it imports.
	Inits []*ssa.Function
}

// A Package is a loaded package whose SSA code was built.
type Package struct {
	ID      string // go/packages ID, e.g. "p [p.test]"
	PkgPath string
	ForTest string // the package under test for test variants and test packages
	Module  string // module path; "" for the standard library
	// ModuleDir is the module's root directory ("" for the standard
	// library and files outside a module): reports name files relative
	// to it.
	ModuleDir string
	Initial   bool // matched by the patterns, or a test package or test variant of such a package
	SSA       *ssa.Package
	// Files are the parsed files, with comments, of an Initial package
	// (nil for the others, whose syntax SSA construction lets go): reports
	// read //chordgo:ignore comments from them.
	Files []*ast.File
}

// A LoadError reports a package that was not analyzed.
type LoadError struct {
	Package string   // go/packages ID
	Errors  []string // first few errors, "file:line:col: message"
}

func (e LoadError) Error() string {
	return e.Package + ": " + strings.Join(e.Errors, "; ")
}

// Program is a loaded, SSA-built set of packages and the roots to analyze.
type Program struct {
	Fset        *token.FileSet
	SSA         *ssa.Program
	Packages    []*Package // sorted by ID
	Roots       []Root     // sorted by Program, then kind, then position
	NumPrograms int
	Errors      []LoadError // packages not analyzed, sorted by package ID

	LoadTime  time.Duration // go/packages: go list, parse, type-check
	BuildTime time.Duration // SSA construction

	byTypes map[*types.Package]*Package
}

// PackageOf returns the loaded package of an SSA package, or nil.
func (p *Program) PackageOf(pkg *types.Package) *Package {
	return p.byTypes[pkg]
}

const maxErrorsPerPackage = 5

// Load loads the packages, builds SSA for them and all their dependencies, and
// finds the roots. Packages that do not load or type-check are reported in
// Program.Errors and left out, together with the packages that import them.
// Load returns an error only if nothing can be analyzed or cfg.Context ended.
func Load(cfg Config) (*Program, error) {
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var runRE *regexp.Regexp
	if cfg.Run != "" {
		// Like go test -run, the part before the first '/' selects top-level tests.
		pat := cfg.Run
		if i := strings.IndexByte(pat, '/'); i >= 0 {
			pat = pat[:i]
		}
		re, err := regexp.Compile(pat)
		if err != nil {
			return nil, fmt.Errorf("invalid -run regexp: %v", err)
		}
		runRE = re
	}

	t0 := time.Now()
	pcfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedImports | packages.NeedDeps | packages.NeedTypes |
			packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedTypesSizes |
			packages.NeedForTest | packages.NeedModule,
		Context: ctx,
		Dir:     cfg.Dir,
		Tests:   cfg.Tests,
	}
	goroot, err := goEnv(ctx, cfg.Dir, "GOROOT")
	if ctx.Err() != nil {
		return nil, fmt.Errorf("stopped while loading packages: %w", context.Cause(ctx))
	}
	if err != nil {
		return nil, err
	}
	pcfg.ParseFile = parseFunc(goroot)
	if len(cfg.Tags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	initial, err := packages.Load(pcfg, patterns...)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("stopped while loading packages: %w", context.Cause(ctx))
	}
	if err != nil {
		return nil, driverError(err)
	}
	loadTime := time.Since(t0)

	prog := &Program{LoadTime: loadTime, byTypes: make(map[*types.Package]*Package)}

	// Choose the top-level packages: an internal test variant "p [p.test]"
	// replaces the plain package p; the synthesized test main "p.test" is dropped.
	variant := make(map[string]*packages.Package) // PkgPath -> internal test variant
	for _, p := range initial {
		if p.ForTest != "" && p.PkgPath == p.ForTest && !p.IllTyped {
			variant[p.PkgPath] = p
		}
	}
	var top []*packages.Package
	for _, p := range initial {
		switch {
		case isTestMain(p):
			continue
		case p.ForTest == "" && variant[p.PkgPath] != nil:
			continue
		}
		top = append(top, p)
	}
	isInitial := make(map[*packages.Package]bool)
	for _, p := range initial {
		isInitial[p] = true
	}

	// Report broken packages (all of them, also those not reachable from top:
	// a broken test variant makes us fall back to the plain package, and the
	// user wants to know).
	reported := make(map[string]bool)
	report := func(p *packages.Package) {
		if reported[p.ID] {
			return
		}
		reported[p.ID] = true
		le := LoadError{Package: p.ID}
		for _, e := range p.Errors {
			if len(le.Errors) == maxErrorsPerPackage {
				le.Errors = append(le.Errors, fmt.Sprintf("(and %d more errors)", len(p.Errors)-maxErrorsPerPackage))
				break
			}
			le.Errors = append(le.Errors, formatError(e))
		}
		if len(p.Errors) == 0 {
			le.Errors = append(le.Errors, "not analyzed: "+brokenImport(p))
		}
		prog.Errors = append(prog.Errors, le)
	}
	packages.Visit(initial, nil, func(p *packages.Package) {
		if isTestMain(p) && len(p.Errors) == 0 {
			return // the test main is not analyzed anyway; its broken imports are reported
		}
		if p.IllTyped || len(p.Errors) > 0 || p.Types == nil {
			report(p)
		}
	})
	sort.Slice(prog.Errors, func(i, j int) bool { return prog.Errors[i].Package < prog.Errors[j].Package })

	// Create SSA packages for the good packages reachable from top.
	t1 := time.Now()
	var fset *token.FileSet
	if len(initial) > 0 {
		fset = initial[0].Fset
	}
	prog.Fset = fset
	sprog := ssa.NewProgram(fset, ssa.InstantiateGenerics)
	prog.SSA = sprog
	created := make(map[*packages.Package]*Package)
	packages.Visit(top, nil, func(p *packages.Package) {
		if p.Types == nil || p.IllTyped || len(p.Errors) > 0 {
			return
		}
		pkg := &Package{
			ID:      p.ID,
			PkgPath: p.PkgPath,
			ForTest: p.ForTest,
			Initial: isInitial[p],
		}
		if pkg.Initial {
			pkg.Files = p.Syntax
		}
		if p.Module != nil {
			pkg.Module, pkg.ModuleDir = p.Module.Path, p.Module.Dir
		}
		if isRuntimePath(p.PkgPath) {
			// The runtime's code is not analyzed (Extract): its functions
			// get no bodies, as if loaded from export data, which saves 40%
			// of SSA construction for a program that imports fmt.
			pkg.SSA = sprog.CreatePackage(p.Types, nil, nil, true)
		} else {
			pkg.SSA = sprog.CreatePackage(p.Types, p.Syntax, p.TypesInfo, true)
		}
		created[p] = pkg
		prog.byTypes[p.Types] = pkg
		prog.Packages = append(prog.Packages, pkg)
	})
	if len(prog.Packages) == 0 {
		if len(prog.Errors) > 0 {
			return prog, errors.New("no package could be analyzed")
		}
		return nil, errors.New("no packages to analyze")
	}
	sort.Slice(prog.Packages, func(i, j int) bool { return prog.Packages[i].ID < prog.Packages[j].ID })
	// What SSA construction consumed can go as soon as a package is built
	// (go/ssa keeps the types.Info of packages with generic functions
	// itself), rather than when Load returns: half the live heap at the end
	// of construction.
	source := make(map[*Package]*packages.Package, len(created))
	for p, pkg := range created {
		source[pkg] = p
	}
	release := func(pkg *Package) {
		if !pkg.Initial {
			p := source[pkg]
			p.Syntax, p.TypesInfo = nil, nil
		}
	}
	if built := buildSSA(ctx, prog.Packages, release); built < len(prog.Packages) {
		return nil, fmt.Errorf("stopped while building SSA (%d of %d packages built): %w", built, len(prog.Packages), context.Cause(ctx))
	}
	prog.BuildTime = time.Since(t1)

	prog.findRoots(top, created, runRE)
	return prog, nil
}

// parseFunc returns the go/packages parser: as go/packages parses, but
// without resolving identifiers to ast.Objects (nothing downstream reads
// them; go/types and go/ssa use their own scopes, and resolving takes a
// quarter of the parser's time), and without the function bodies of the
// runtime proper (IsRuntime), which is not analyzed: Load builds no SSA
// code for it, and type-checking its bodies is 40% of the load of a
// program that imports fmt. The runtime's tests (package x_test) keep
// theirs.
func parseFunc(goroot string) func(*token.FileSet, string, []byte) (*ast.File, error) {
	src := filepath.Join(goroot, "src")
	return func(fset *token.FileSet, filename string, content []byte) (*ast.File, error) {
		f, err := parser.ParseFile(fset, filename, content, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if err != nil || strings.HasSuffix(f.Name.Name, "_test") {
			return f, err
		}
		if dir, err := filepath.Rel(src, filepath.Dir(filename)); err == nil && isRuntimePath(filepath.ToSlash(dir)) {
			dropBodies(f)
		}
		return f, nil
	}
}

// dropBodies removes the bodies of f's functions but those go/types wants
// (init functions, generic functions), and blank-names the imports only
// the bodies used (go/types reports an unused import): f still
// type-checks, with the same package-level objects and types.
func dropBodies(f *ast.File) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Type.TypeParams.NumFields() == 0 && (fd.Recv != nil || fd.Name.Name != "init") {
			fd.Body = nil
		}
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	for _, spec := range f.Imports {
		name := importName(strings.Trim(spec.Path.Value, "`\""))
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if name != "_" && name != "." && !used[name] {
			spec.Name = ast.NewIdent("_")
		}
	}
}

// importName is the name a package of this import path declares, by the
// convention the standard library follows: the last element, or the one
// before a major version (math/rand/v2). A wrong guess fails loudly: the
// import is blank-named or unused, and the package does not type-check.
func importName(importPath string) string {
	name := path.Base(importPath)
	if dir := path.Dir(importPath); dir != "." && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		return path.Base(dir)
	}
	return name
}

// goEnv returns a variable of the go command's environment, as go list
// sees it in dir.
func goEnv(ctx context.Context, dir, name string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
			return "", fmt.Errorf("go env %s: %s", name, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildSSA builds the packages' functions as ssa.Program.Build does, a
// package per core at a time, calling done with each package built, and
// stops starting packages when ctx ends; it returns how many packages were
// built.
func buildSSA(ctx context.Context, pkgs []*Package, done func(*Package)) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	built := 0
	cores := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, p := range pkgs {
		cores <- struct{}{}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.SSA.Build()
			done(p)
			mu.Lock()
			built++
			mu.Unlock()
			<-cores
		}()
	}
	wg.Wait()
	return built
}

// driverErrorRE matches go/packages' wrapping of a failed go command:
// "err: exit status 1: stderr: go: go.mod file not found ...\n".
var driverErrorRE = regexp.MustCompile(`(?s)^err: (.*?): stderr: (.*)$`)

// driverError turns a failed go command into one line: what the go command
// printed, or how it failed if it printed nothing.
func driverError(err error) error {
	m := driverErrorRE.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	var lines []string
	for _, l := range strings.Split(m[2], "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return fmt.Errorf("go list: %s", m[1])
	}
	return errors.New(strings.Join(lines, "; "))
}

func formatError(e packages.Error) string {
	if e.Pos == "" || e.Pos == "-" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}

// brokenImport names a dependency of p that has errors.
func brokenImport(p *packages.Package) string {
	seen := make(map[*packages.Package]bool)
	var find func(q *packages.Package) string
	find = func(q *packages.Package) string {
		paths := make([]string, 0, len(q.Imports))
		for path := range q.Imports {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			imp := q.Imports[path]
			if seen[imp] {
				continue
			}
			seen[imp] = true
			if len(imp.Errors) > 0 {
				return imp.ID
			}
			if imp.IllTyped {
				if s := find(imp); s != "" {
					return s
				}
			}
		}
		return ""
	}
	if s := find(p); s != "" {
		return "imports package with errors " + s
	}
	return "package or a dependency has errors"
}

// isTestMain reports whether p is the test main package synthesized by go test.
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.ID, ".test") && strings.HasSuffix(p.PkgPath, ".test") &&
		!strings.Contains(p.ID, " ")
}

// findRoots finds main functions and test functions of the top packages and
// numbers the programs.
func (prog *Program) findRoots(top []*packages.Package, created map[*packages.Package]*Package, runRE *regexp.Regexp) {
	type progKey struct {
		path string
		test bool
	}
	type group struct {
		key   progKey
		roots []Root
		inits []*ssa.Function
	}
	groups := make(map[progKey]*group)
	get := func(k progKey) *group {
		g := groups[k]
		if g == nil {
			g = &group{key: k}
			groups[k] = g
		}
		return g
	}
	for _, p := range top {
		pkg := created[p]
		if pkg == nil {
			continue
		}
		sp := pkg.SSA
		init := sp.Func("init")
		if p.Name == "main" && p.ForTest == "" || p.Name == "main" && p.ForTest == p.PkgPath {
			if mainFn := sp.Func("main"); mainFn != nil && mainFn.Signature.Params().Len() == 0 && mainFn.Signature.Results().Len() == 0 {
				g := get(progKey{p.PkgPath, false})
				g.inits = append(g.inits, init)
				g.roots = append(g.roots, Root{Kind: Main, Func: mainFn, Name: "main"})
			}
		}
		if p.ForTest == "" {
			continue
		}
		g := get(progKey{p.ForTest, true})
		if init != nil {
			g.inits = append(g.inits, init)
		}
		g.roots = append(g.roots, testRoots(prog.Fset, p, sp, runRE)...)
	}
	keys := make([]progKey, 0, len(groups))
	for k, g := range groups {
		if len(g.roots) == 0 {
			continue
		}
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].path != keys[j].path {
			return keys[i].path < keys[j].path
		}
		return !keys[i].test && keys[j].test
	})
	for n, k := range keys {
		g := groups[k]
		// The internal test variant's init runs before the external test package's.
		slices.SortStableFunc(g.inits, func(a, b *ssa.Function) int { return strings.Compare(a.Pkg.Pkg.Path(), b.Pkg.Pkg.Path()) })
		slices.SortStableFunc(g.roots, func(a, b Root) int {
			if a.Kind == TestMain || b.Kind == TestMain {
				if a.Kind == b.Kind {
					return 0
				}
				if a.Kind == TestMain {
					return -1
				}
				return 1
			}
			return comparePos(prog.Fset, a.Func.Pos(), b.Func.Pos())
		})
		for _, r := range g.roots {
			r.Program = n
			r.Inits = g.inits
			prog.Roots = append(prog.Roots, r)
		}
	}
	prog.NumPrograms = len(keys)
}

func comparePos(fset *token.FileSet, a, b token.Pos) int {
	pa, pb := fset.Position(a), fset.Position(b)
	if c := strings.Compare(pa.Filename, pb.Filename); c != 0 {
		return c
	}
	return pa.Offset - pb.Offset
}

// testRoots returns the tests, benchmarks, fuzz targets, examples and TestMain
// of a test package, selected by runRE as go test -run does.
func testRoots(fset *token.FileSet, p *packages.Package, sp *ssa.Package, runRE *regexp.Regexp) []Root {
	var roots []Root
	for name, mem := range sp.Members {
		fn, ok := mem.(*ssa.Function)
		if !ok || fn.Blocks == nil || fn.TypeParams().Len() > 0 {
			continue
		}
		if !strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go") {
			continue
		}
		sig := fn.Signature
		if sig.Recv() != nil || sig.Results().Len() != 0 {
			continue
		}
		var kind RootKind
		switch {
		case name == "TestMain" && sig.Params().Len() == 1 && isTestingPtr(sig.Params().At(0).Type(), "M"):
			roots = append(roots, Root{Kind: TestMain, Func: fn, Name: name})
			continue
		case isTestName(name, "Test") && sig.Params().Len() == 1 && isTestingPtr(sig.Params().At(0).Type(), "T"):
			kind = Test
		case isTestName(name, "Benchmark") && sig.Params().Len() == 1 && isTestingPtr(sig.Params().At(0).Type(), "B"):
			kind = Benchmark
		case isTestName(name, "Fuzz") && sig.Params().Len() == 1 && isTestingPtr(sig.Params().At(0).Type(), "F"):
			kind = Fuzz
		case isTestName(name, "Example") && sig.Params().Len() == 0 && hasOutputComment(fn, p.Syntax):
			kind = Example
		default:
			continue
		}
		if runRE != nil && !runRE.MatchString(name) {
			continue
		}
		roots = append(roots, Root{Kind: kind, Func: fn, Name: name})
	}
	return roots
}

// isTestName reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter (the go test rule).
func isTestName(name, prefix string) bool {
	if !strings.HasPrefix(name, prefix) {
		return false
	}
	if len(name) == len(prefix) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(name[len(prefix):])
	return !unicode.IsLower(r)
}

// isTestingPtr reports whether t is *testing.<name>.
func isTestingPtr(t types.Type, name string) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == "testing"
}

var outputRE = regexp.MustCompile(`(?i)^[[:space:]]*(unordered )?output:`)

// hasOutputComment reports whether the example function has an output
// comment, the condition for go test to run it.
func hasOutputComment(fn *ssa.Function, files []*ast.File) bool {
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || decl.Body == nil {
		return false
	}
	for _, f := range files {
		if f.FileStart > decl.Pos() || decl.Pos() >= f.FileEnd {
			continue
		}
		var last *ast.CommentGroup
		for _, cg := range f.Comments {
			if cg.Pos() > decl.Body.Lbrace && cg.End() < decl.Body.Rbrace {
				last = cg
			}
		}
		return last != nil && outputRE.MatchString(last.Text())
	}
	return false
}
