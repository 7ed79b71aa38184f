package reports

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"unicode"

	"github.com/chordgo/chordgo/pointsto"
)

// ignoreDirective, followed by a reason, on the line of an access or the
// line above it takes the access's races out of the report: the
// programmer says the race is understood (a benign flag, a race the
// program tolerates). It is the programmer's claim, not a proof.
const ignoreDirective = "//chordgo:ignore"

// Suppressions are the //chordgo:ignore comments of the packages named,
// and which of them matched a race.
type Suppressions struct {
	list   []*suppression // in file and line order
	byLine map[fileLine]*suppression
}

type suppression struct {
	pos    token.Position
	reason string
	used   bool
}

type fileLine struct {
	file string
	line int
}

// ReadSuppressions reads the //chordgo:ignore comments of the files of the
// packages named (pointsto.Package.Initial). A //chordgo: comment without a
// reason, or another than ignore, is an error naming its position.
func ReadSuppressions(prog *pointsto.Program) (*Suppressions, error) {
	s := &Suppressions{byLine: map[fileLine]*suppression{}}
	var errs []error
	seen := map[string]bool{} // a package and its test variant share files
	for _, p := range prog.Packages {
		if !p.Initial {
			continue
		}
		for _, f := range p.Files {
			name := prog.Fset.File(f.Pos()).Name()
			if seen[name] {
				continue
			}
			seen[name] = true
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if !strings.HasPrefix(c.Text, "//chordgo:") {
						continue
					}
					pos := prog.Fset.Position(c.Slash)
					directive, reason := c.Text, ""
					if i := strings.IndexFunc(c.Text, unicode.IsSpace); i >= 0 {
						directive, reason = c.Text[:i], strings.TrimSpace(c.Text[i:])
					}
					switch {
					case directive != ignoreDirective:
						errs = append(errs, fmt.Errorf("%s: unknown directive %s; chordgo knows %s <reason>", pos, directive, ignoreDirective))
					case reason == "":
						errs = append(errs, fmt.Errorf("%s: %s without a reason; say why the race is harmless: %s <reason>", pos, ignoreDirective, ignoreDirective))
					default:
						sup := &suppression{pos: pos, reason: reason}
						s.list = append(s.list, sup)
						s.byLine[fileLine{pos.Filename, pos.Line}] = sup
					}
				}
			}
		}
	}
	slices.SortFunc(s.list, func(a, b *suppression) int { return comparePos(a.pos, b.pos) })
	slices.SortFunc(errs, func(a, b error) int { return cmp.Compare(a.Error(), b.Error()) })
	switch len(errs) {
	case 0:
		return s, nil
	case 1:
		return nil, errs[0]
	}
	return nil, fmt.Errorf("%d wrong //chordgo: comments:\n\t%w", len(errs), joinLines(errs))
}

// joinLines joins errors one a line, indented as their heading's list.
func joinLines(errs []error) error {
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return errors.New(strings.Join(msgs, "\n\t"))
}

// match marks and reports whether a suppression is on the line of pos or
// on the line above it.
func (s *Suppressions) match(pos token.Position) bool {
	found := false
	for _, line := range []int{pos.Line, pos.Line - 1} {
		if sup := s.byLine[fileLine{pos.Filename, line}]; sup != nil {
			sup.used = true
			found = true
		}
	}
	return found
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

// Suppress takes out of the report the races with an access on the line
// of a suppression or the line below it, and counts them in
// Stats.Filtered.Suppressed.
func (rep *Report) Suppress(s *Suppressions) {
	rep.Stats.Filtered.Suppressed += rep.omit(func(e *entry) bool {
		first, second := s.match(e.order[0]), s.match(e.order[1]) // both: each suppression matched is used
		return first || second
	})
}
