package racefree

import (
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
	for _, f := range funcs {
		if f.Marked {
			edits[f.File] = append(edits[f.File], overlay.Insertion{Offset: f.Offset, Text: noraceText(f.Pos)})
		}
	}
	return overlay.Write(overlayFile, dir, edits, nil)
}

// earlierCopy matches the names of the copies overlay.Write makes.
var earlierCopy = regexp.MustCompile(`^[0-9]+_.*\.go$`)

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

// noraceText is what goes before the func keyword at pos (its position as
// the compiler sees it): the directive, and a //line directive that gives
// the next line (the func keyword's) the line and column pos has.
func noraceText(pos token.Position) string {
	return fmt.Sprintf("//go:norace\n//line %s:%d:%d\n", pos.Filename, pos.Line, pos.Column)
}
