package html

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chordgo/chordgo/reports"
	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browsers are the names Debian's packages give Chromium (chromium,
// chromium-headless-shell) and other systems' names for it.
var browsers = []string{"chromium", "chromium-headless-shell", "chromium-browser", "google-chrome", "headless_shell"}

// browser returns the path of a Chromium. Without one the test fails in
// CI (the environment variable CI is set; .ci/run sets it and installs
// Chromium) and is skipped elsewhere.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range browsers {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := fmt.Sprintf("no Chromium on PATH (looked for %s); on Debian: apt-get install chromium", strings.Join(browsers, ", "))
	if os.Getenv("CI") != "" {
		t.Fatal(msg + " (CI is set, so the browser test must run)")
	}
	t.Skip(msg)
	return ""
}

// problems collects what the browser says went wrong: console errors,
// uncaught exceptions, failed loads, and any dialog (an alert would come
// from markup in the analyzed program that the report did not escape).
type problems struct {
	mu   sync.Mutex
	list []string
}

func (p *problems) add(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.list = append(p.list, fmt.Sprintf(format, args...))
}

func (p *problems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.list
	p.list = nil
	return out
}

// listen records the browser's problems; it dismisses dialogs so that
// the page goes on.
func (p *problems) listen(ctx *context.Context) func(ev any) {
	return func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				p.add("console.%s: %s", ev.Type, strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			desc := ""
			if d.Exception != nil {
				desc = d.Exception.Description
			}
			p.add("uncaught exception at %s:%d: %s %s", d.URL, d.LineNumber+1, d.Text, desc)
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				p.add("console error (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			}
		case *network.EventLoadingFailed:
			p.add("load failed: %s %s", ev.ErrorText, ev.BlockedReason)
		case *cdppage.EventJavascriptDialogOpening:
			p.add("dialog %s: %q", ev.Type, ev.Message)
			go func() {
				_, _ = chromedp.Run(*ctx, func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
					_, err := cdp.Call(ctx, t, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{})
					return chromedp.Void{}, err
				})
			}()
		}
	}
}

// eval evaluates a JavaScript expression in the current page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	data, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// followed is what the test follows from the index: the race of
// closure_write_racy, and the location of html_markup_racy.
type followed struct {
	race      reports.Race
	pkg       string // the race's package
	inPkg     int    // locations with an access in that package
	markupLoc string
}

func pickRaces(t *testing.T, rep *reports.Report) followed {
	t.Helper()
	var f followed
	var pkgs []string // the packages of the current location
	inPkg := map[string]int{}
	err := rep.Each(func(race reports.Race, i, n int) error {
		if i == 0 {
			for _, p := range slices.Compact(slices.Sorted(slices.Values(pkgs))) {
				inPkg[p]++
			}
			pkgs = nil
		}
		for _, a := range race.Accesses {
			if info, ok := rep.Func(a.Func); ok {
				pkgs = append(pkgs, info.Pkg)
			}
		}
		switch pos := race.Accesses[0].Pos; {
		case strings.Contains(pos, "/closure_write_racy/"):
			f.race = race
			info, _ := rep.Func(race.Accesses[0].Func)
			f.pkg = info.Pkg
		case strings.Contains(pos, "/html_markup_racy/"):
			f.markupLoc = race.Location.ID
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range slices.Compact(slices.Sorted(slices.Values(pkgs))) {
		inPkg[p]++
	}
	if f.race.ID == "" || f.markupLoc == "" || f.pkg == "" {
		t.Fatalf("the corpus's report lacks closure_write_racy's or html_markup_racy's race: %+v", f)
	}
	f.inPkg = inPkg[f.pkg]
	return f
}

// TestBrowser opens the report of testdata/races in headless Chromium:
// the index sorts and filters, its link leads to the race's page, whose
// highlighted lines are the race's, and on to the source page's line;
// html_markup_racy's markup is text; a sample of the pages loads with
// their style sheet and no console error, failed load or dialog.
func TestBrowser(t *testing.T) {
	exe := browser(t)
	rep := analyzeCorpus(t).report(reports.DefaultMaxPaths)
	dir := writeReport(t, rep)
	f := pickRaces(t, rep)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // bounds the whole browser
	defer cancel()
	ctx, cancel = chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1280, 1000))...)
	defer cancel()
	var probs problems
	var tab context.Context
	tab, cancel = chromedp.NewContext(ctx, chromedp.WithListener(probs.listen(&tab)))
	defer cancel()
	fileURL := func(rel string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, rel))}).String()
	}
	checkProblems := func(where string) {
		for _, p := range probs.take() {
			t.Errorf("%s: %s", where, p)
		}
	}

	// The index: a row per location, sorted by a column, filtered by package.
	do(t, tab, "open the index", chromedp.Navigate(fileURL("index.html")))
	if n := eval[int](t, tab, `document.querySelectorAll('#locations tbody tr').length`); n != rep.Stats.Locations {
		t.Errorf("index: %d rows by location, want %d", n, rep.Stats.Locations)
	}
	screenshot(t, tab, "index.png")
	pairs := `Array.from(document.querySelectorAll('#locations tbody tr')).map(r => +r.cells[4].textContent)`
	for _, order := range []string{"ascending", "descending"} {
		do(t, tab, "sort by pairs", chromedp.Click(chromedp.CSS(`#locations th:nth-child(5)`)))
		got := eval[[]int](t, tab, pairs)
		sorted := slices.IsSorted(got)
		if order == "descending" {
			slices.Reverse(got)
			sorted = slices.IsSorted(got)
		}
		if !sorted || len(got) != rep.Stats.Locations {
			t.Errorf("index sorted by pairs, %s: %v", order, got)
		}
	}
	do(t, tab, "filter by package", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
		`(s => { s.value = %q; s.dispatchEvent(new Event('change')); })(document.getElementById('pkg'))`, f.pkg)))
	if n := eval[int](t, tab, `document.querySelectorAll('#locations tbody tr:not([hidden])').length`); n != f.inPkg {
		t.Errorf("index filtered by %s: %d rows shown, want %d", f.pkg, n, f.inPkg)
	}
	checkProblems("index")

	// The race's page, from the index's link.
	locPage := "loc/" + f.race.Location.ID + ".html"
	do(t, tab, "follow the link to the race's location",
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#locations a[href=%q]`, locPage))),
		chromedp.WaitVisible(chromedp.CSS("#race-"+f.race.ID)))
	if loc := eval[string](t, tab, `location.href`); loc != fileURL(locPage) {
		t.Errorf("the index's link led to %s, want %s", loc, fileURL(locPage))
	}
	got := eval[[]int](t, tab, fmt.Sprintf(`Array.from(document.querySelectorAll('#race-%s .line.hl')).map(l => +l.dataset.line)`, f.race.ID))
	want := []int{accessLine(t, f.race.Accesses[0].Pos), accessLine(t, f.race.Accesses[1].Pos)}
	if !slices.Equal(got, want) {
		t.Errorf("race %s: highlighted lines %v, want %v", f.race.ID, got, want)
	}
	screenshot(t, tab, "race.png")
	checkProblems(locPage)

	// The first access's line on its source page.
	do(t, tab, "follow the link to the source",
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#race-%s article h3 a.pos`, f.race.ID))),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#L%d`, want[0]))))
	target := eval[string](t, tab, `(e => e ? e.id + ' ' + getComputedStyle(e).backgroundColor : 'none')(document.querySelector(':target'))`)
	if id, bg, _ := strings.Cut(target, " "); id != fmt.Sprintf("L%d", want[0]) || bg == "" || bg == "rgba(0, 0, 0, 0)" {
		t.Errorf("source page: the target line is %q, want L%d highlighted", target, want[0])
	}
	if href := eval[string](t, tab, `location.href`); !strings.Contains(href, "/src/") || !strings.HasSuffix(href, fmt.Sprintf("#L%d", want[0])) {
		t.Errorf("the access's link led to %s", href)
	}
	checkProblems("source page")

	// html_markup_racy's markup shows as text.
	markupPage := "loc/" + f.markupLoc + ".html"
	do(t, tab, "open html_markup_racy's location", chromedp.Navigate(fileURL(markupPage)))
	shown := eval[string](t, tab, `[document.querySelectorAll('img').length, Array.from(document.scripts).map(s => s.getAttribute('src')).join(','),
		document.body.textContent.includes('"</script><script>alert(1)</script><img src=x onerror=alert(2)>"')].join(' ')`)
	if shown != "0 app.js true" {
		t.Errorf("%s: images, scripts, markup as text: %q, want %q", markupPage, shown, "0 app.js true")
	}
	checkProblems(markupPage)

	// A sample of the pages: each loads its style sheet, with no problem.
	pages := readPages(t, dir)
	visited := openSample(t, tab, &probs, dir, pages, 7)
	t.Logf("%d pages of %d opened", visited+4, len(pages))
}

// openSample opens the index and every every-th other page of the report
// in dir, in name order, and checks that each loads its style sheet with
// no problem; it returns how many it opened.
func openSample(t *testing.T, tab context.Context, probs *problems, dir string, pages map[string]*page, every int) int {
	t.Helper()
	var names []string
	for name := range pages {
		names = append(names, name)
	}
	slices.Sort(names)
	visited := 0
	for i, name := range names {
		if i%every != 0 && name != "index.html" {
			continue
		}
		visited++
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, name))}).String()
		do(t, tab, "open "+name, chromedp.Navigate(u))
		if w := eval[string](t, tab, `getComputedStyle(document.body).maxWidth`); w != "1200px" {
			t.Errorf("%s: the style sheet is not applied (body max-width %q)", name, w)
		}
		for _, p := range probs.take() {
			t.Errorf("%s: %s", name, p)
		}
	}
	return visited
}
