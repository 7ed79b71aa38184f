package reports

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/chordgo/chordgo/pointsto"
)

// ignoreDirective, followed by a reason, at the end of an access's line
// or alone on the line above it takes the access's races out of the
// report: the programmer says the race is understood (a benign flag, a
// race the program tolerates). It is the programmer's claim, not a proof.
const ignoreDirective = "//chordgo:ignore"

// Suppressions are the //chordgo:ignore comments of the packages named,
// and which of them matched a race.
type Suppressions struct {
	list     []*suppression              // in file and line order
	byTarget map[fileLine][]*suppression // by the line they are about
}

type suppression struct {
	pos  token.Position
	used bool
}

type fileLine struct {
	file string
	line int
}

// ReadSuppressions reads the //chordgo:ignore comments of the files of the
// packages named (pointsto.Package.Initial). A //chordgo: comment without a
// reason, or another than ignore, is an error naming its position.
func ReadSuppressions(prog *pointsto.Program) (*Suppressions, error) {
	s := &Suppressions{byTarget: map[fileLine][]*suppression{}}
	var errs []posError
	seen := map[string]bool{} // a package and its test variant share files
	for _, p := range prog.Packages {
		if !p.Initial {
			continue
		}
		for _, f := range p.Files {
			if name := prog.Fset.File(f.Pos()).Name(); !seen[name] {
				seen[name] = true
				errs = append(errs, s.read(prog.Fset, f)...)
			}
		}
	}
	slices.SortFunc(s.list, func(a, b *suppression) int { return comparePos(a.pos, b.pos) })
	slices.SortFunc(errs, func(a, b posError) int { return comparePos(a.pos, b.pos) })
	switch len(errs) {
	case 0:
		return s, nil
	case 1:
		return nil, errs[0]
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return nil, fmt.Errorf("%d wrong //chordgo: comments:\n\t%s", len(errs), strings.Join(msgs, "\n\t"))
}

type posError struct {
	pos token.Position
	msg string
}

func (e posError) Error() string { return e.pos.String() + ": " + e.msg }

// read adds the suppressions of file f and returns the wrong ones.
func (s *Suppressions) read(fset *token.FileSet, f *ast.File) []posError {
	var errs []posError
	var src []byte // f's source, read at the first directive
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, "//chordgo:") {
				continue
			}
			pos := fset.Position(c.Slash)
			directive, reason := c.Text, ""
			if i := strings.IndexFunc(c.Text, unicode.IsSpace); i >= 0 {
				directive, reason = c.Text[:i], strings.TrimSpace(c.Text[i:])
			}
			switch {
			case directive != ignoreDirective:
				errs = append(errs, posError{pos, "unknown directive " + directive + "; chordgo knows " + ignoreDirective + " <reason>"})
				continue
			case reason == "":
				errs = append(errs, posError{pos, ignoreDirective + " without a reason; say why the race is harmless: " + ignoreDirective + " <reason>"})
				continue
			}
			tf := fset.File(c.Slash)
			if src == nil {
				var err error
				if src, err = os.ReadFile(tf.Name()); err != nil {
					return append(errs, posError{pos, err.Error()})
				}
			}
			start, end := tf.Offset(tf.LineStart(tf.Line(c.Slash))), tf.Offset(c.Slash)
			if end > len(src) {
				return append(errs, posError{pos, "the file changed after it was loaded"})
			}
			// Alone on its line, the comment is about the next line.
			target := fileLine{pos.Filename, pos.Line}
			if len(bytes.TrimSpace(src[start:end])) == 0 {
				target.line++
			}
			sup := &suppression{pos: pos}
			s.list = append(s.list, sup)
			s.byTarget[target] = append(s.byTarget[target], sup)
		}
	}
	return errs
}

// match marks and reports whether a suppression is about the line of pos.
func (s *Suppressions) match(pos token.Position) bool {
	sups := s.byTarget[fileLine{pos.Filename, pos.Line}]
	for _, sup := range sups {
		sup.used = true
	}
	return len(sups) > 0
}

// Unused returns the positions ("FILE:line:col") of the suppressions that
// matched no race, in file and line order.
func (s *Suppressions) Unused() []string {
	var out []string
	for _, sup := range s.list {
		if !sup.used {
			out = append(out, sup.pos.String())
		}
	}
	return out
}

// Suppress takes out of the report the races with an access on a line a
// suppression is about, and counts them in
// Stats.Filtered.Suppressed.
func (rep *Report) Suppress(s *Suppressions) {
	rep.Stats.Filtered.Suppressed += rep.omit(&rep.filtered.Suppressed, func(e *entry) bool {
		first, second := s.match(e.order[0]), s.match(e.order[1]) // both: each suppression matched is used
		return first || second
	})
}
