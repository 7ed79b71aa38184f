package reports

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// ChangedLines are the lines a change adds or modifies, by absolute file
// name.
type ChangedLines map[string][]lineRange

type lineRange struct{ first, last int }

// has reports whether line of file is changed.
func (c ChangedLines) has(file string, line int) bool {
	for _, r := range c[file] {
		if r.first <= line && line <= r.last {
			return true
		}
	}
	return false
}

// OmitUnchanged takes out of the report the races with no access on a
// line of c, and counts them in Stats.Filtered.Unchanged.
func (rep *Report) OmitUnchanged(c ChangedLines) {
	rep.Stats.Filtered.Unchanged += rep.omit(&rep.filtered.Unchanged, func(e *entry) bool {
		return !c.has(e.order[0].Filename, e.order[0].Line) && !c.has(e.order[1].Filename, e.order[1].Line)
	})
}

// GitChanges returns the lines that git diff rev adds or changes in the
// working tree of the git repository holding dir (tracked files only:
// git diff does not show untracked ones). File names are dir's, joined
// with the paths git prints.
func GitChanges(dir, rev string) (ChangedLines, error) {
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("-new-from-rev %q: a revision does not start with '-'", rev)
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			var exit *exec.ExitError
			if errors.As(err, &exit) && stderr.Len() > 0 {
				msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
				return "", errors.New(msg)
			}
			return "", err
		}
		return string(out), nil
	}
	// The prefix of dir in its repository, to name the files git prints
	// (relative to the top) from dir.
	prefix, err := git("rev-parse", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev: %s: %v", dir, err)
	}
	commit, err := git("rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev: unknown revision %q in the git repository of %s", rev, dir)
	}
	// -U0: hunks are exactly the lines changed. Explicit options, so that
	// the user's git configuration (noprefix, external diff, relative
	// paths, renames) does not change what is parsed.
	diff, err := git("diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv", "--no-relative",
		"--src-prefix=a/", "--dst-prefix=b/", "-M", strings.TrimSpace(commit), "--")
	if err != nil {
		return nil, fmt.Errorf("-new-from-rev: git diff %s: %v", rev, err)
	}
	top := dir
	for range strings.Count(strings.TrimSpace(prefix), "/") {
		top = filepath.Dir(top)
	}
	return parseDiff(strings.NewReader(diff), top)
}

var hunkHeader = regexp.MustCompile(`^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseDiff reads a unified diff (git diff -U0, prefixes a/ and b/) and
// returns the lines of the new files that its hunks add, with file names
// joined to top.
func parseDiff(r io.Reader, top string) (ChangedLines, error) {
	changed := ChangedLines{}
	file := ""               // the new file of the hunks being read; "" when deleted
	oldLeft, newLeft := 0, 0 // lines of the current hunk's body not read yet
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if oldLeft > 0 || newLeft > 0 {
			// A body line, whatever it looks like ("+++ x" can be an added line).
			switch {
			case strings.HasPrefix(line, "-"):
				oldLeft--
			case strings.HasPrefix(line, "+"):
				newLeft--
			case strings.HasPrefix(line, `\`): // \ No newline at end of file
			default:
				return nil, fmt.Errorf("git diff, line %d: %q in a hunk of -U0", n, shortText(line))
			}
			continue
		}
		switch {
		case strings.HasPrefix(line, "diff "):
			file = ""
		case strings.HasPrefix(line, "+++ "):
			name := strings.TrimPrefix(line, "+++ ")
			if name == "/dev/null" {
				file = ""
				continue
			}
			if strings.HasPrefix(name, `"`) {
				// git quotes names with unusual bytes as C strings.
				unquoted, err := strconv.Unquote(name)
				if err != nil {
					return nil, fmt.Errorf("git diff, line %d: file name %s: %v", n, shortText(name), err)
				}
				name = unquoted
			}
			rel, ok := strings.CutPrefix(name, "b/")
			if !ok {
				return nil, fmt.Errorf("git diff, line %d: new file %q without the b/ prefix", n, shortText(name))
			}
			file = filepath.Join(top, filepath.FromSlash(rel))
		case strings.HasPrefix(line, "@@ "):
			m := hunkHeader.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("git diff, line %d: malformed hunk header %q", n, shortText(line))
			}
			oldLeft, newLeft = hunkLines(m[1]), hunkLines(m[3])
			start, _ := strconv.Atoi(m[2])
			if file != "" && newLeft > 0 {
				changed[file] = append(changed[file], lineRange{start, start + newLeft - 1})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("git diff: %v", err)
	}
	return changed, nil
}

// hunkLines is the line count of a hunk header's range: 1 when omitted.
func hunkLines(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}
