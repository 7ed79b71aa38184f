package racefree

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/chordgo/chordgo/internal/overlay"
)

// Dir returns the directory beside overlayFile that holds the rewritten
// files: overlayFile without its extension, plus ".files".
func Dir(overlayFile string) string {
	return strings.TrimSuffix(overlayFile, filepath.Ext(overlayFile)) + ".files"
}

// Write writes the go build -overlay file overlayFile and, in Dir of it
// (created, or emptied of an earlier run's files), the copies of the files
// of the marked functions, each marked function preceded by
// "//go:norace" and a //line directive that gives its func keyword the
// position it has in the file, so that every line after keeps its number
// (race reports, panics and coverage read the same lines).
func Write(overlayFile string, funcs []Function) error {
	dir := Dir(overlayFile)
	if err := clearDir(dir); err != nil {
		return err
	}
	edits := map[string][]overlay.Insertion{}
	sources := map[string][]byte{}
	added := map[string][]byte{}
	for _, f := range funcs {
		if f.Accessors > 0 {
			edits[f.File] = append(edits[f.File], f.Edits...)
			name := "zz_chordgo_accessors.go"
			if strings.HasSuffix(f.Package, "_test") && strings.HasSuffix(f.File, "_test.go") {
				name = "zz_chordgo_accessors_x_test.go"
			}
			added[filepath.Join(filepath.Dir(f.File), name)] = []byte(strings.Replace(accessorFile, "PACKAGE", f.Package, 1))
		}
		if !f.Marked {
			continue
		}
		src, ok := sources[f.File]
		if !ok {
			var err error
			if src, err = os.ReadFile(f.File); err != nil {
				return err
			}
			sources[f.File] = src
		}
		text := noraceText(f.Pos)
		if afterProse(src, f.Offset) {
			text = "//\n" + text
		}
		edits[f.File] = append(edits[f.File], overlay.Insertion{Offset: f.Offset, Text: text})
	}
	return overlay.Write(overlayFile, dir, edits, added)
}

// earlierCopy matches the names of the copies overlay.Write makes.
var earlierCopy = regexp.MustCompile(`^(added_)?[0-9]+_.*\.go$`)

// clearDir creates dir, or removes the copies an earlier run wrote into
// it; any other file makes it refuse, as dir is not then ours.
func clearDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return os.MkdirAll(dir, 0o755)
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !earlierCopy.MatchString(e.Name()) {
			return fmt.Errorf("%s holds %s, which an earlier chordgo racefree did not write: remove it or choose another -overlay file", dir, e.Name())
		}
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// directive matches the comment lines go/ast counts as directives.
var directive = regexp.MustCompile(`^//(line |extern |export |[a-z0-9]+:[a-z0-9])`)

// afterProse says whether the line before offset (the func keyword's
// line) is a line of a doc comment's text: gofmt separates the
// directives at the end of a doc comment from its text by a "//" line,
// which the copy then has too, to stay gofmt-stable.
func afterProse(src []byte, offset int) bool {
	lineStart := bytes.LastIndexByte(src[:offset], '\n')
	if lineStart < 0 {
		return false
	}
	prev := src[bytes.LastIndexByte(src[:lineStart], '\n')+1 : lineStart]
	return bytes.HasPrefix(prev, []byte("//")) && len(bytes.TrimSpace(prev)) > 2 && !directive.Match(prev)
}

// noraceText is what goes before the func keyword at pos (its position as
// the compiler sees it): the directive, and a //line directive that gives
// the next line (the func keyword's) the line and column pos has. Column
// 0 is unknown: an earlier //line directive without a column gave none.
func noraceText(pos token.Position) string {
	if pos.Column == 0 {
		return fmt.Sprintf("//go:norace\n//line %s:%d\n", pos.Filename, pos.Line)
	}
	return fmt.Sprintf("//go:norace\n//line %s:%d:%d\n", pos.Filename, pos.Line, pos.Column)
}
