package html

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chordgo/chordgo/demand"
	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/races"
	"github.com/chordgo/chordgo/reports"
	"golang.org/x/net/html"
)

// analyzed is a program's points-to and races, to build reports from.
type analyzed struct {
	r   *pointsto.Result
	res *races.Result
}

func (a analyzed) report(maxPaths int) *reports.Report {
	return reports.Build(a.r, a.res, reports.Options{MaxPaths: maxPaths})
}

// analyze runs the funnel at k = 1, as chordgo check -demand=false does,
// over the packages matched by pattern in dir.
func analyze(t testing.TB, dir, pattern string) analyzed {
	t.Helper()
	dr, err := demand.Analyze(pointsto.Config{Patterns: []string{pattern}, Dir: dir}, demand.Options{Once: true})
	if err != nil {
		t.Fatal(err)
	}
	return analyzed{dr.PointsTo, dr.Races}
}

// The programs of testdata/races, analyzed together once.
var (
	corpusOnce sync.Once
	corpus     analyzed
	corpusErr  string
)

// repoRoot is the repository's root, which file names are shown from.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func analyzeCorpus(t testing.TB) analyzed {
	t.Helper()
	corpusOnce.Do(func() {
		corpusErr = "the corpus's analysis failed in an earlier test"
		corpus = analyze(t, repoRoot(t), "./testdata/races/...")
	})
	if corpus.r == nil {
		t.Fatal(corpusErr)
	}
	return corpus
}

// writeReport writes rep into a new directory and returns it.
func writeReport(t testing.TB, rep *reports.Report) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(dir, rep, Options{Root: repoRoot(t)}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// page is a written page, parsed.
type page struct {
	path string // relative to the report, with slashes
	doc  *html.Node
	ids  map[string]*html.Node
}

// readPages parses every .html file of the report.
func readPages(t *testing.T, dir string) map[string]*page {
	t.Helper()
	pages := map[string]*page{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".html" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if len(data) >= 1<<20 {
			t.Errorf("%s: %d bytes, want under 1 MB", path, len(data))
		}
		doc, err := html.Parse(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		rel, _ := filepath.Rel(dir, path)
		p := &page{path: filepath.ToSlash(rel), doc: doc, ids: map[string]*html.Node{}}
		for n := range doc.Descendants() {
			if id := attr(n, "id"); id != "" {
				if p.ids[id] != nil {
					t.Errorf("%s: id %q given twice", p.path, id)
				}
				p.ids[id] = n
			}
		}
		pages[p.path] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

func attr(n *html.Node, key string) string {
	if n.Type != html.ElementNode {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(attr(n, "class")), class)
}

// checkLinks checks that every href and src of every page is relative and
// finds its file and, with a fragment, its element. It returns how many
// links it checked.
func checkLinks(t *testing.T, dir string, pages map[string]*page) int {
	t.Helper()
	n := 0
	for _, p := range pages {
		base := path.Dir(p.path) // the directory links are relative to
		for node := range p.doc.Descendants() {
			if node.Type == html.ElementNode && node.Data == "base" {
				base = path.Join(base, attr(node, "href"))
			}
		}
		for node := range p.doc.Descendants() {
			ref := attr(node, "href")
			if node.Data == "script" || node.Data == "img" {
				ref = attr(node, "src")
			}
			if ref == "" || node.Data == "base" {
				continue
			}
			n++
			u, err := url.Parse(ref)
			if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") {
				t.Errorf("%s: link %q is not relative to the report", p.path, ref)
				continue
			}
			target := path.Join(base, u.Path)
			if u.Path == "" {
				target = p.path
			}
			if !filepath.IsLocal(target) {
				t.Errorf("%s: link %q leaves the report", p.path, ref)
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target))); err != nil {
				t.Errorf("%s: link %q: %v", p.path, ref, err)
				continue
			}
			if u.Fragment == "" {
				continue
			}
			if tp := pages[target]; tp == nil || tp.ids[u.Fragment] == nil {
				t.Errorf("%s: link %q: no element %q in %s", p.path, ref, u.Fragment, target)
			}
		}
	}
	return n
}

// accessLine returns the line of an access's position.
func accessLine(t *testing.T, pos string) int {
	t.Helper()
	_, line, _, ok := splitPos(pos)
	if !ok {
		t.Fatalf("position %q", pos)
	}
	return line
}

// highlighted returns the highlighted lines of each access of a race's
// section, in order.
func highlighted(section *html.Node) [][]int {
	var out [][]int
	for n := range section.Descendants() {
		if n.Data == "article" && hasClass(n, "access") {
			var lines []int
			for l := range n.Descendants() {
				if hasClass(l, "line") && hasClass(l, "hl") {
					line, _ := strconv.Atoi(attr(l, "data-line"))
					lines = append(lines, line)
				}
			}
			out = append(out, lines)
		}
	}
	return out
}

// TestCorpus writes the report of testdata/races and checks every page:
// under 1 MB, every link found, a page per location with every race, the
// lines highlighted those of the race's accesses, the index's rows.
func TestCorpus(t *testing.T) {
	rep := analyzeCorpus(t).report(reports.DefaultMaxPaths)
	dir := writeReport(t, rep)
	pages := readPages(t, dir)
	if n := checkLinks(t, dir, pages); n < 1000 {
		t.Errorf("%d links checked; the corpus's report should have thousands", n)
	}
	locations := 0
	err := rep.Each(func(race reports.Race, i, n int) error {
		if i == 0 {
			locations++
		}
		var section *html.Node
		for _, p := range pages {
			if strings.HasPrefix(p.path, "loc/"+race.Location.ID) && p.ids["race-"+race.ID] != nil {
				section = p.ids["race-"+race.ID]
			}
		}
		if section == nil {
			t.Errorf("race %s of location %s: no section on the location's pages", race.ID, race.Location.ID)
			return nil
		}
		got := highlighted(section)
		want := [][]int{{accessLine(t, race.Accesses[0].Pos)}, {accessLine(t, race.Accesses[1].Pos)}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("race %s: highlighted lines %v, want %v", race.ID, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	index := pages["index.html"]
	if index == nil {
		t.Fatal("no index.html")
	}
	rows := 0
	for n := range index.ids["locations"].Descendants() {
		if n.Data == "tr" && attr(n, "data-pkgs") != "" {
			rows++
		}
	}
	if locations != rep.Stats.Locations || rows != locations {
		t.Errorf("%d locations described, %d rows in the index; the report counts %d", locations, rows, rep.Stats.Locations)
	}
	// Locks name where they are (condmustnot's Locksets.Name): linked.
	lockLinks := 0
	for _, p := range pages {
		for n := range p.doc.Descendants() {
			if !hasClass(n, "lock") {
				continue
			}
			for a := range n.Descendants() {
				if a.Data == "a" && hasClass(a, "pos") {
					lockLinks++
				}
			}
		}
	}
	if lockLinks == 0 {
		t.Error("no lock links to where it is: the lock names' positions were not found")
	}
	for _, asset := range []string{"style.css", "app.js"} {
		if _, err := os.Stat(filepath.Join(dir, asset)); err != nil {
			t.Error(err)
		}
	}
}

// TestMarkupAsText checks that the markup in html_markup_racy's type and
// strings is text on every page that shows it: no element made from it,
// no script but app.js.
func TestMarkupAsText(t *testing.T) {
	dir := writeReport(t, analyze(t, repoRoot(t), "./testdata/races/html_markup_racy").report(0))
	pages := readPages(t, dir)
	if len(pages) != 3 {
		t.Errorf("%d pages, want the index, a location and a source page", len(pages))
	}
	for _, p := range pages {
		var text strings.Builder
		for n := range p.doc.Descendants() {
			switch {
			case n.Type == html.TextNode:
				text.WriteString(n.Data)
			case n.Data == "img", n.Data == "script" && (attr(n, "src") != "app.js" || n.FirstChild != nil):
				t.Errorf("%s: element %s %v from the program's markup", p.path, n.Data, n.Attr)
			}
		}
		for _, want := range []string{`"</script><script>alert(1)</script><img src=x onerror=alert(2)>"`} {
			if !strings.Contains(text.String(), want) {
				t.Errorf("%s: the text does not show %s", p.path, want)
			}
		}
	}
}

// TestDeterministic checks that two reports of one program are the same
// bytes.
func TestDeterministic(t *testing.T) {
	a := analyze(t, repoRoot(t), "./testdata/races/helper_unlocked_in_goroutine_racy")
	first, second := readTree(t, writeReport(t, a.report(0))), readTree(t, writeReport(t, a.report(0)))
	if len(first) < 5 || len(second) != len(first) {
		t.Errorf("%d files, then %d", len(first), len(second))
	}
	for name, data := range second {
		if !bytes.Equal(data, first[name]) {
			t.Errorf("%s differs between two reports", name)
		}
	}
}

// readTree returns the files under dir by their names relative to it.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
