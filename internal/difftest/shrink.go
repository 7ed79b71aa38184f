package main

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// maxCandidates bounds the variants one round of the shrinker tries.
const maxCandidates = 150

// shrink deletes statements and declarations from src while keep says a
// variant still shows the failure. keep gets the variants of one round,
// shortest first, and returns the index of one that does, or -1. Variants
// that do not compile are keep's to reject. The result is src if no
// deletion keeps the failure.
func shrink(src string, keep func([]string) (int, error)) (string, error) {
	for {
		cands, err := deletions(src)
		if err != nil {
			return "", err
		}
		if len(cands) > maxCandidates {
			cands = cands[:maxCandidates]
		}
		if len(cands) == 0 {
			return src, nil
		}
		i, err := keep(cands)
		if err != nil {
			return "", err
		}
		if i < 0 {
			return src, nil
		}
		src = cands[i]
	}
}

// An edit deletes stmts [lo, hi) of the list-th statement list, or the
// decl-th top-level declaration when list is -1.
type edit struct{ list, lo, hi, decl int }

// deletions returns the distinct programs src gives with one top-level
// declaration or one run of consecutive statements of one statement list
// deleted (runs of half a list, a quarter, ..., one statement), unused
// imports dropped, gofmt'ed, shortest first.
func deletions(src string) ([]string, error) {
	_, file, err := parse(src)
	if err != nil {
		return nil, err
	}
	var edits []edit
	for i := range file.Decls {
		edits = append(edits, edit{list: -1, decl: i})
	}
	for i, list := range stmtLists(file) {
		n := len(*list)
		for size := n; size >= 1; size /= 2 {
			for lo := 0; lo+size <= n; lo += size {
				edits = append(edits, edit{list: i, lo: lo, hi: lo + size})
			}
		}
	}
	seen := map[string]bool{src: true}
	var out []string
	for _, e := range edits {
		// Each edit starts from a fresh parse: deletions change the tree.
		fset, file, err := parse(src)
		if err != nil {
			return nil, err
		}
		if e.list < 0 {
			file.Decls = slices.Delete(file.Decls, e.decl, e.decl+1)
		} else {
			list := stmtLists(file)[e.list]
			*list = slices.Delete(*list, e.lo, e.hi)
		}
		s, err := formatUsed(fset, file)
		if err != nil {
			continue // a deletion that leaves no valid syntax
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return strings.Count(a, "\n") - strings.Count(b, "\n") })
	return out, nil
}

// formatUsed returns file gofmt'ed without the imports it does not use.
func formatUsed(fset *token.FileSet, file *ast.File) (string, error) {
	var unused []string
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !astutil.UsesImport(file, path) {
			unused = append(unused, path)
		}
	}
	for _, path := range unused {
		astutil.DeleteImport(fset, file, path)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return "", err
	}
	// Deleted statements leave blank lines: drop those at the start or
	// end of a block and runs of them.
	var out []string
	lines := strings.Split(buf.String(), "\n")
	for i, line := range lines {
		if line == "" && i > 0 && i+1 < len(lines) {
			prev, next := out[len(out)-1], strings.TrimSpace(lines[i+1])
			if prev == "" || strings.HasSuffix(prev, "{") || strings.HasPrefix(next, "}") || next == "" {
				continue
			}
		}
		out = append(out, line)
	}
	src, err := format.Source([]byte(strings.Join(out, "\n")))
	return string(src), err
}

func parse(src string) (*token.FileSet, *ast.File, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	return fset, file, err
}

// stmtLists returns the statement lists of file in a fixed order.
func stmtLists(file *ast.File) []*[]ast.Stmt {
	var out []*[]ast.Stmt
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			out = append(out, &n.List)
		case *ast.CaseClause:
			out = append(out, &n.Body)
		case *ast.CommClause:
			out = append(out, &n.Body)
		}
		return true
	})
	return out
}
