package html

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// sources reads the files a report mentions, once each, for excerpts and
// source pages, and remembers which lines the pages must show.
type sources struct {
	root  string
	files map[string]*sourceFile // by absolute name
}

type sourceFile struct {
	name    string // as shown: relative to the root when inside it
	url     string // its page, relative to the report
	lines   []string
	err     error
	mention map[int]bool         // lines linked to
	access  map[int][]accessMark // lines of racing accesses
}

// accessMark is a racing access on a source line, linked to its race.
type accessMark struct {
	Op   string
	Race string
	URL  string
}

// excerptContext is how many lines an excerpt shows around an access;
// windowContext around each line a page links to, in a file whose whole
// page would pass maxSourcePage bytes.
const (
	excerptContext = 2
	windowContext  = 12
	maxSourcePage  = 512 << 10
)

func newSources(root string) *sources {
	return &sources{root: root, files: map[string]*sourceFile{}}
}

// file reads name the first time it is asked for.
func (s *sources) file(name string) *sourceFile {
	if f, ok := s.files[name]; ok {
		return f
	}
	f := &sourceFile{name: name, mention: map[int]bool{}, access: map[int][]accessMark{}}
	if s.root != "" {
		if rel, err := filepath.Rel(s.root, name); err == nil && filepath.IsLocal(rel) {
			f.name = filepath.ToSlash(rel)
		}
	}
	sum := sha256.Sum256([]byte(name))
	f.url = "src/" + pageName.ReplaceAllString(f.name, "_") + "-" + hex.EncodeToString(sum[:4]) + ".html"
	data, err := os.ReadFile(name)
	if err != nil {
		f.err = err
	} else {
		f.lines = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	s.files[name] = f
	return f
}

// pageName keeps a source page's name to characters every file system
// and URL takes as they are; a hash of the whole name keeps it unique.
var pageName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// posView is a position as shown and linked: "main.go:12:3" and its line
// on the file's page.
type posView struct {
	Text string
	URL  string // "" when there is no page to link to
	Line int
}

// pos shows position p ("FILE:line:col", "FILE:line", or "-") and links it
// to its line's source page; a page is written for every file linked.
func (s *sources) pos(p string) posView {
	file, line, rest, ok := splitPos(p)
	if !ok {
		return posView{Text: p}
	}
	f := s.file(file)
	pv := posView{Text: f.name + ":" + strconv.Itoa(line) + rest, Line: line}
	if f.err == nil && line >= 1 && line <= len(f.lines) {
		f.mention[line] = true
		pv.URL = f.url + "#L" + strconv.Itoa(line)
	}
	return pv
}

// splitPos splits "FILE:line:col" or "FILE:line" into the file, the line
// and ":col"; the file may hold colons itself.
func splitPos(p string) (file string, line int, col string, ok bool) {
	i := strings.LastIndexByte(p, ':')
	if i < 0 {
		return "", 0, "", false
	}
	last, err := strconv.Atoi(p[i+1:])
	if err != nil {
		return "", 0, "", false
	}
	file, line, col = p[:i], last, ""
	if j := strings.LastIndexByte(file, ':'); j >= 0 {
		if n, err := strconv.Atoi(file[j+1:]); err == nil {
			file, line, col = p[:j], n, p[i:]
		}
	}
	if file == "" {
		return "", 0, "", false
	}
	return file, line, col, true
}

// markAccess records a racing access on its line, for the file's page.
func (s *sources) markAccess(p string, m accessMark) {
	file, line, _, ok := splitPos(p)
	if !ok {
		return
	}
	if f := s.file(file); f.err == nil && line <= len(f.lines) && !slices.Contains(f.access[line], m) {
		f.access[line] = append(f.access[line], m)
	}
}

// excerpt is a few lines around an access, the access's line marked.
type excerpt struct {
	Lines []sourceLine
	Err   string // why there is none
}

type sourceLine struct {
	N      int
	Text   string
	URL    string // the line on its file's page (in an excerpt)
	Hl     bool   // a line a link led to, or the access's line in an excerpt
	Access []accessMark
	Gap    bool // lines left out before this one
}

func (s *sources) excerpt(p string) excerpt {
	file, line, _, ok := splitPos(p)
	if !ok {
		return excerpt{Err: "no position"}
	}
	f := s.file(file)
	switch {
	case f.err != nil:
		return excerpt{Err: f.err.Error()}
	case line > len(f.lines):
		return excerpt{Err: fmt.Sprintf("%s has %d lines, not %d: it changed since it was analyzed", f.name, len(f.lines), line)}
	}
	var ex excerpt
	for n := max(1, line-excerptContext); n <= min(len(f.lines), line+excerptContext); n++ {
		ex.Lines = append(ex.Lines, sourceLine{N: n, Text: f.lines[n-1], URL: f.url + "#L" + strconv.Itoa(n), Hl: n == line})
	}
	return ex
}

// sourcePage is what the source template shows.
type sourcePage struct {
	Name    string
	Lines   []sourceLine
	Partial bool // only the lines around those linked to
}

// writePages writes a page for every readable file mentioned, sorted by
// name so that the output is the same from run to run.
func (s *sources) writePages(dir string) error {
	files := make([]*sourceFile, 0, len(s.files))
	for _, f := range s.files {
		if f.err == nil && len(f.mention) > 0 {
			files = append(files, f)
		}
	}
	slices.SortFunc(files, func(a, b *sourceFile) int { return cmp.Compare(a.url, b.url) })
	for _, f := range files {
		// The whole file, or, if that page is too large, the lines around
		// those linked to.
		var b bytes.Buffer
		for _, partial := range []bool{false, true} {
			b.Reset()
			if err := templates.ExecuteTemplate(&b, "source", f.page(partial)); err != nil {
				return fmt.Errorf("html report: %s: %w", f.name, err)
			}
			if b.Len() <= maxSourcePage {
				break
			}
		}
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f.url)), b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// page shows the whole file or, if partial, the lines around those linked
// to, so that every link finds its line.
func (f *sourceFile) page(partial bool) sourcePage {
	p := sourcePage{Name: f.name, Partial: partial}
	show := func(n int) bool { return true }
	if p.Partial {
		show = func(n int) bool {
			for d := -windowContext; d <= windowContext; d++ {
				if f.mention[n+d] {
					return true
				}
			}
			return false
		}
	}
	gap := false
	for i, text := range f.lines {
		n := i + 1
		if !show(n) {
			gap = true
			continue
		}
		p.Lines = append(p.Lines, sourceLine{N: n, Text: text, Access: f.access[n], Gap: gap})
		gap = false
	}
	return p
}
