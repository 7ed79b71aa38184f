package html

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chordgo/chordgo/reports"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets/*
var assetFS embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"plural": plural,
	"inc":    func(i int) int { return i + 1 },
}).ParseFS(templateFS, "templates/*.html"))

// Options say where the report's file names are shown from.
type Options struct {
	// Root is the directory file names are shown relative to (chordgo
	// check's working directory); files outside it are shown whole.
	Root string
}

// Page budgets: a location's pairs go on as many pages as it takes to keep
// each under the first bound and readable under the second.
const (
	maxPageBytes = 256 << 10
	maxPagePairs = 100
)

// Write writes the HTML report of rep into dir: index.html, a page per
// location under loc/, a page per source file mentioned under src/, and
// the style sheet and script. dir is created if missing; it must be empty
// or hold an earlier report, whose pages are replaced.
func Write(dir string, rep *reports.Report, opts Options) error {
	if err := prepare(dir); err != nil {
		return err
	}
	w := &writer{dir: dir, rep: rep, src: newSources(opts.Root)}
	if err := rep.Each(w.race); err != nil {
		return err
	}
	if err := w.endLocation(); err != nil {
		return err
	}
	if err := w.writeIndex(); err != nil {
		return err
	}
	if err := w.src.writePages(dir); err != nil {
		return err
	}
	return writeAssets(dir)
}

// reportFiles are the names a report writes at the top of its directory.
var reportFiles = []string{"index.html", "style.css", "app.js", "loc", "src"}

// CheckDir says whether a report may be written into dir, without
// changing anything: dir is missing, or a directory that is empty or
// holds an earlier report. chordgo check asks before it analyzes.
func CheckDir(dir string) error {
	_, err := reportDirs(dir)
	return err
}

// prepare makes dir ready for a report: created if missing, or emptied of
// an earlier report's pages.
func prepare(dir string) error {
	subs, err := reportDirs(dir)
	if err != nil {
		return err
	}
	for _, sub := range subs {
		if err := os.RemoveAll(sub); err != nil {
			return fmt.Errorf("html report: %w", err)
		}
	}
	return os.MkdirAll(dir, 0o755)
}

// reportDirs returns the page directories of an earlier report in dir,
// or an error if dir holds anything a report does not write: that is not
// ours to remove.
func reportDirs(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("html report: %w", err)
	}
	for _, e := range entries {
		if !slices.Contains(reportFiles, e.Name()) {
			return nil, fmt.Errorf("html report: %s holds %s, which is not part of a chordgo HTML report; name a new or empty directory, or one with an earlier report",
				dir, e.Name())
		}
	}
	var subs []string
	for _, sub := range []string{"loc", "src"} {
		path := filepath.Join(dir, sub)
		pages, err := os.ReadDir(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("html report: %w", err)
		}
		for _, p := range pages {
			if p.IsDir() || filepath.Ext(p.Name()) != ".html" {
				return nil, fmt.Errorf("html report: %s holds %s, which is not part of a chordgo HTML report", path, p.Name())
			}
		}
		subs = append(subs, path)
	}
	return subs, nil
}

func writeAssets(dir string) error {
	return fs.WalkDir(assetFS, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assetFS.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, d.Name()), data, 0o644)
	})
}

// writer streams the races into location pages and remembers what the
// index and the source pages need.
type writer struct {
	dir  string
	rep  *reports.Report
	src  *sources
	locs []*locSummary
	cur  *locState
}

// locSummary is a location's row in the index.
type locSummary struct {
	reports.Location
	Label  string
	URL    string // its first page, from the index
	Obj    posView
	Pairs  int
	Writes int // accesses that write
	Atomic int // accesses that are atomic
	Pkgs   []string
}

// ObjectKey is what the by-object view groups locations by: the global,
// or the allocation site and type of the object.
func (l *locSummary) ObjectKey() string {
	if l.Global != "" {
		return "global " + l.Global
	}
	return l.Object + " " + l.Type
}

// locState is the location whose races are being written, and its page.
type locState struct {
	sum   *locSummary
	pkgs  map[string]bool
	n     int // its number of races
	page  int // the page being filled, from 1
	first int // the index of its first race
	pairs bytes.Buffer
	count int // pairs on the page
}

func (w *writer) race(race reports.Race, i, n int) error {
	if i == 0 {
		if err := w.endLocation(); err != nil {
			return err
		}
		loc := race.Location
		sum := &locSummary{Location: loc, Label: label(loc), URL: "loc/" + loc.ID + ".html", Obj: w.src.pos(loc.Object)}
		w.locs = append(w.locs, sum)
		w.cur = &locState{sum: sum, pkgs: map[string]bool{}, n: n, page: 1}
	}
	s := w.cur
	if s.count == maxPagePairs || s.count > 0 && s.pairs.Len() > maxPageBytes {
		if err := w.flushPage(i); err != nil {
			return err
		}
	}
	pv := w.pair(race, i)
	if err := templates.ExecuteTemplate(&s.pairs, "pair", pv); err != nil {
		return err
	}
	s.count++
	s.sum.Pairs++
	for _, a := range race.Accesses {
		if a.Op == "write" {
			s.sum.Writes++
		}
		if a.Atomic {
			s.sum.Atomic++
		}
		if info, ok := w.rep.Func(a.Func); ok && info.Pkg != "" {
			s.pkgs[info.Pkg] = true
		}
	}
	return nil
}

// pageURL is the name of a location's page k, relative to the report.
func pageURL(locID string, k int) string {
	if k == 1 {
		return "loc/" + locID + ".html"
	}
	return fmt.Sprintf("loc/%s-%d.html", locID, k)
}

// locationPage is what the location template shows.
type locationPage struct {
	Loc        *locSummary
	Page       int
	From, To   int // the pairs on the page, from 1
	Total      int
	Prev, Next string
	Pairs      template.HTML // the pairs, rendered by the pair template
}

// flushPage writes the page being filled; next is the index of the first
// race of the next page, or the number of races at the location's end.
func (w *writer) flushPage(next int) error {
	s := w.cur
	p := locationPage{Loc: s.sum, Page: s.page, From: s.first + 1, To: next, Total: s.n,
		Pairs: template.HTML(s.pairs.String())} // our own template's output
	if s.page > 1 {
		p.Prev = pageURL(s.sum.ID, s.page-1)
	}
	if next < s.n {
		p.Next = pageURL(s.sum.ID, s.page+1)
	}
	if err := writePage(filepath.Join(w.dir, pageURL(s.sum.ID, s.page)), "location", p); err != nil {
		return err
	}
	s.page++
	s.first = next
	s.pairs.Reset()
	s.count = 0
	return nil
}

// endLocation writes the last page of the current location.
func (w *writer) endLocation() error {
	s := w.cur
	if s == nil {
		return nil
	}
	for p := range s.pkgs {
		s.sum.Pkgs = append(s.sum.Pkgs, p)
	}
	slices.Sort(s.sum.Pkgs)
	err := w.flushPage(s.n)
	w.cur = nil
	return err
}

func writePage(path, name string, data any) error {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("html report: %s: %w", path, err)
	}
	return writeFile(path, b.Bytes())
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("html report: %w", err)
	}
	return nil
}

// label names a location in a few words, without where its object was
// allocated (shown beside it).
func label(loc reports.Location) string {
	switch loc.Kind {
	case "field":
		if loc.Global != "" {
			return "field " + loc.Field + " of " + loc.Global
		}
		return "field " + loc.Field
	case "global":
		return "global " + loc.Global
	case "element":
		return "element of " + loc.Type
	case "map":
		return "map " + loc.Type
	case "variable":
		return strings.TrimSuffix(loc.Desc, " allocated at "+loc.Object)
	}
	return "object of type " + loc.Type
}

// Views of a race for the pair template.
type (
	pairView struct {
		ID       string
		N        int // its number among its location's races, from 1
		Accesses [2]accessView
		Paths    bool // the accesses come with call paths
	}
	accessView struct {
		Op      string
		Atomic  bool
		Pos     posView
		Func    funcView
		Kind    string // of its goroutine: root, init, go
		Entries []funcView
		Spawn   []posView
		Roots   []funcView
		Locks   []lockView
		Path    []frameView
		Excerpt excerpt
	}
	frameView struct {
		Func  funcView
		Pos   posView
		Locks []lockView
	}
	funcView struct {
		Name string
		URL  string // its declaration; "" when it has none or its file cannot be read
	}
	// lockView is a lock's name with the position inside it as a link:
	// "&c.mu (" link ", held by its callers)".
	lockView struct {
		Before string
		At     posView
		After  string
	}
)

func (w *writer) pair(race reports.Race, i int) pairView {
	pv := pairView{ID: race.ID, N: i + 1, Paths: len(race.Accesses[0].Path) > 0}
	for k, a := range race.Accesses {
		av := accessView{Op: a.Op, Atomic: a.Atomic, Pos: w.src.pos(a.Pos), Func: w.fn(a.Func), Kind: a.Goroutine.Kind,
			Locks: w.locks(a.Locks), Excerpt: w.src.excerpt(a.Pos)}
		w.src.markAccess(a.Pos, accessMark{Op: a.Op, Race: race.ID, URL: pageURL(race.Location.ID, w.cur.page) + "#race-" + race.ID})
		for _, e := range strings.Split(a.Goroutine.Entry, " or ") {
			av.Entries = append(av.Entries, w.fn(e))
		}
		for _, s := range a.Goroutine.Spawn {
			av.Spawn = append(av.Spawn, w.src.pos(s))
		}
		for _, r := range a.Roots {
			av.Roots = append(av.Roots, w.fn(r))
		}
		for j, fr := range a.Path {
			locks := fr.Locks
			if j == len(a.Path)-1 {
				locks = a.Locks
			}
			av.Path = append(av.Path, frameView{Func: w.fn(fr.Func), Pos: w.src.pos(fr.Pos), Locks: w.locks(locks)})
		}
		pv.Accesses[k] = av
	}
	return pv
}

func (w *writer) fn(name string) funcView {
	fv := funcView{Name: name}
	if info, ok := w.rep.Func(name); ok {
		fv.URL = w.src.pos(info.Pos).URL
	}
	return fv
}

// lockPos finds the position in a lock's name (condmustnot.Locksets.Name):
// "&c.mu (FILE:LINE)", "&c.mu (FILE:LINE, held by its callers)".
var lockPos = regexp.MustCompile(`\(([^()]+):(\d+)[,)]`)

func (w *writer) locks(names []string) []lockView {
	var out []lockView
	for _, name := range names {
		m := lockPos.FindStringSubmatchIndex(name)
		if m == nil {
			out = append(out, lockView{Before: name})
			continue
		}
		file, line := name[m[2]:m[3]], name[m[4]:m[5]]
		out = append(out, lockView{Before: name[:m[2]], At: w.src.pos(file + ":" + line), After: name[m[5]:]})
	}
	return out
}

// indexPage is what the index template shows.
type indexPage struct {
	Stats     reports.Stats
	Errors    []string
	Locations []*locSummary
	Objects   []*objectRow
	Pkgs      []string
}

// objectRow is an abstract object's row in the by-object view (Chord's
// by-object grouping): its locations and their pairs.
type objectRow struct {
	Label     string
	Obj       posView
	Type      string
	Locations []*locSummary
	Pairs     int
	Pkgs      []string
}

func (w *writer) writeIndex() error {
	p := indexPage{Stats: w.rep.Stats, Errors: w.rep.Errors, Locations: w.locs}
	byKey := map[string]*objectRow{}
	pkgs := map[string]bool{}
	for _, l := range w.locs {
		o, ok := byKey[l.ObjectKey()]
		if !ok {
			o = &objectRow{Obj: l.Obj, Type: l.Type}
			switch {
			case l.Global != "":
				o.Label = "global " + l.Global
			default:
				o.Label = "object of type " + l.Type
			}
			byKey[l.ObjectKey()] = o
			p.Objects = append(p.Objects, o)
		}
		o.Locations = append(o.Locations, l)
		o.Pairs += l.Pairs
		for _, pkg := range l.Pkgs {
			pkgs[pkg] = true
			if !slices.Contains(o.Pkgs, pkg) {
				o.Pkgs = append(o.Pkgs, pkg)
			}
		}
	}
	for _, o := range p.Objects {
		slices.Sort(o.Pkgs)
	}
	for pkg := range pkgs {
		p.Pkgs = append(p.Pkgs, pkg)
	}
	slices.Sort(p.Pkgs)
	return writePage(filepath.Join(w.dir, "index.html"), "index", p)
}

// plural writes n and the noun, plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
