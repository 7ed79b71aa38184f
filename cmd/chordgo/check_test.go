package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMain runs the command instead of the tests when the test binary is
// started as chordgo (runCommand), for what needs a process of its own.
func TestMain(m *testing.M) {
	if os.Getenv("CHORDGO_TEST_AS_COMMAND") == "1" {
		os.Exit(run(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// runCommand starts chordgo as a process of its own.
func runCommand(t testing.TB, stdout, stderr io.Writer, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CHORDGO_TEST_AS_COMMAND=1")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// runCaptured runs the command line args and returns its exit status,
// standard output and standard error.
func runCaptured(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return captured(t, func() int { return run(args) })
}

// captured calls f and returns its result, and what it wrote to standard
// output and standard error.
func captured(t *testing.T, f func() int) (code int, stdout, stderr string) {
	t.Helper()
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	savedOut, savedErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outW, errW
	var out, errOut bytes.Buffer
	done := make(chan error, 2)
	for _, c := range []struct {
		dst *bytes.Buffer
		src *os.File
	}{{&out, outR}, {&errOut, errR}} {
		go func() {
			_, err := io.Copy(c.dst, c.src)
			done <- err
		}()
	}
	code = f()
	os.Stdout, os.Stderr = savedOut, savedErr
	outW.Close()
	errW.Close()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	return code, out.String(), errOut.String()
}

func testdata(t testing.TB, elem ...string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(append([]string{"..", "..", "testdata"}, elem...)...))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheck(t *testing.T) {
	racy := testdata(t, "races", "closure_write_racy")
	long := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name   string
		dir    string // run there ("": the package directory)
		env    []string
		args   []string
		code   int
		stdout []string // regexps
		stderr []string // regexps
	}{
		{name: "race", args: []string{"check", racy}, code: 1, stdout: []string{"WARNING: DATA RACE", "main.go:11:3", "main.go:14:2", "Location: variable x", "chordgo: 1 location, 1 access pair\n"}},
		{name: "no race", args: []string{"check", testdata(t, "races", "chan_unbuffered_send")}, stdout: []string{"chordgo: 0 locations, 0 access pairs\n"}},
		{name: "bad -paths", args: []string{"check", "-paths", "-1", racy}, code: 2, stderr: []string{`-paths -1: want 0 \(all\) or more`}},
		{name: "stage off", args: []string{"check", "-mhp=false", testdata(t, "races", "chan_unbuffered_send")}, code: 1, stdout: []string{"WARNING: DATA RACE"}},
		{name: "broken package", args: []string{"check", testdata(t, "check") + "/..."}, code: 2, stdout: []string{"check/racy/main.go:9:3"}},
		{name: "bad flag", args: []string{"check", "-nosuchflag"}, code: 2, stderr: []string{"-nosuchflag"}},
		{name: "no packages", args: []string{"check", testdata(t, "check", "nonexistent")}, code: 2},

		// Files named on the command line are analyzed like the package
		// they make (command-line-arguments, in no module).
		{name: "files named", dir: racy, args: []string{"check", "main.go"}, code: 1, stdout: []string{"main.go:11:3"}},
		// Nothing runs a library without tests or main: an error, unless
		// accepted.
		{name: "library without roots", args: []string{"check", testdata(t, "checkroots", "lib")}, code: 2,
			stderr: []string{`nothing to analyze: .* \(github.com/chordgo/chordgo/testdata/checkroots/lib\); .* -allow-empty`}},
		{name: "allow empty", args: []string{"check", "-allow-empty", testdata(t, "checkroots", "lib")},
			stdout: []string{"chordgo: 0 locations, 0 access pairs\n"}, stderr: []string{"warning: .* 1 of the 1 packages named"}},
		{name: "tests off", args: []string{"check", "-tests=false", testdata(t, "checkroots", "tested")}, code: 2, stderr: []string{"nothing to analyze"}},
		{name: "some packages not run", args: []string{"check", testdata(t, "checkroots") + "/..."}, code: 1,
			stdout: []string{"tested.go:11:3", "tested.go:14:2"}, stderr: []string{`warning: .* 1 of the 2 packages named, so their races are not reported: github.com/chordgo/chordgo/testdata/checkroots/lib\n`}},
		// A standard-library package named is analyzed with its tests as
		// roots, and its accesses can be reported.
		{name: "std package named", dir: t.TempDir(), args: []string{"check", "-stats", "internal/singleflight"},
			code: 1, stderr: []string{`pairs: original [1-9]`}},

		// //chordgo:ignore comments; exit status 1 only for races left.
		{name: "all suppressed", args: []string{"check", "-stats", testdata(t, "suppress", "ignored")},
			stdout: []string{`^chordgo: 0 locations, 0 access pairs \(not reported: 4 suppressed\)\n$`},
			stderr: []string{`not reported: 4 suppressed \(//chordgo:ignore\), 0 in the baseline`,
				`(?m)^chordgo check: warning: \S+/suppress/ignored/main.go:22:2: //chordgo:ignore matches no race\n`}},
		{name: "all suppressed, JSON", args: []string{"check", "-json", testdata(t, "suppress", "ignored")},
			stdout: []string{`"reported": 0,\n    "filtered": {\n      "suppressed": 4,\n      "baseline": 0,\n      "unchanged": 0\n    },\n    "locations": 0,`}},
		{name: "partly suppressed", args: []string{"check", testdata(t, "suppress", "partly")}, code: 1,
			stdout: []string{`Location: global \S+/suppress/partly\.b\n`, `chordgo: 1 location, 1 access pair \(not reported: 1 suppressed\)\n$`}},
		{name: "suppression without a reason", args: []string{"check", testdata(t, "suppress", "noreason")}, code: 2,
			stderr: []string{`^chordgo check: \S+/suppress/noreason/main.go:11:3: //chordgo:ignore without a reason; say why the race is harmless: //chordgo:ignore <reason>\n$`}},
		{name: "SARIF directory missing", args: []string{"check", "-sarif", filepath.Join(t.TempDir(), "none", "log.sarif"), racy}, code: 2,
			stderr: []string{`^chordgo check: -sarif \S+/none/log.sarif: no directory \S+/none to write it in\n$`}},
		{name: "baseline directory missing", args: []string{"check", "-write-baseline", filepath.Join(t.TempDir(), "none", "baseline"), racy}, code: 2,
			stderr: []string{`^chordgo check: -write-baseline \S+/none/baseline: no directory \S+/none to write it in\n$`}},
		{name: "baseline missing", args: []string{"check", "-baseline", filepath.Join(t.TempDir(), "none"), racy}, code: 2,
			stderr: []string{`^chordgo check: open \S+/none: no such file or directory\n$`}},

		{name: "negative k", args: []string{"check", "-k", "-1", racy}, code: 2, stderr: []string{`-k -1: want 0 .* or a positive k`}},
		{name: "negative max-contexts", args: []string{"check", "-max-contexts=-5", racy}, code: 2, stderr: []string{`-max-contexts -5: want 0 \(no bound\) or a positive bound`}},
		{name: "negative timeout", args: []string{"check", "-timeout=-1s", racy}, code: 2, stderr: []string{`-timeout -1s: want a positive duration`}},
		{name: "bad mem", args: []string{"check", "-mem", "lots", racy}, code: 2, stderr: []string{`invalid size "lots"`}},
		{name: "bad mem default", env: []string{"CHORDGO_MEM=12 bananas"}, args: []string{"check", racy}, code: 2, stderr: []string{`CHORDGO_MEM: invalid size "12 bananas"`}},
		{name: "outside a module", dir: t.TempDir(), args: []string{"check", "."}, code: 2,
			stderr: []string{`^chordgo check: go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n$`}},
		{name: "long name in error", args: []string{"check", "-run", long + "(", racy}, code: 2,
			stderr: []string{`^chordgo check: invalid -run regexp: .{0,400}\(1048\d+ bytes\).{0,300}\n$`}},
		{name: "long unknown flag", args: []string{"check", "-" + long}, code: 2, stderr: []string{`^flag provided but not defined: -x{119}\.\.\.\(1048577 bytes\)\.\.\.x{60}\n`}},

		// Budgets that run out before the first complete run: nothing to
		// report, a message, and the status of its own.
		{name: "tiny timeout", args: []string{"check", "-timeout", "1ns", racy}, code: 3,
			stderr: []string{`the time budget \(-timeout 1ns\) ran out`, `not analyzed: `, `try a larger -timeout`}},
		{name: "tiny memory", args: []string{"check", "-mem", "1MB", racy}, code: 3,
			stderr: []string{`the memory budget \(-mem 1MB\) ran out`, `not analyzed: `, `try a larger -mem \(or CHORDGO_MEM\)`}},
		{name: "tiny memory default", env: []string{"CHORDGO_MEM=1MiB"}, args: []string{"check", racy}, code: 3,
			stderr: []string{`the memory budget \(-mem 1MiB\) ran out`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.dir != "" {
				t.Chdir(tc.dir)
			}
			for _, kv := range tc.env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			code, stdout, stderr := runCaptured(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tc.code, shorten(stderr))
			}
			for _, c := range []struct {
				name, text string
				want       []string
			}{{"standard output", stdout, tc.stdout}, {"standard error", stderr, tc.stderr}} {
				for _, w := range c.want {
					if !regexp.MustCompile(w).MatchString(c.text) {
						t.Errorf("%s does not match %q:\n%s", c.name, w, shorten(c.text))
					}
				}
			}
		})
	}
}

// TestInterrupt sends SIGINT to a check of this repository while it loads:
// it ends with the interrupt's message and status 3.
func TestInterrupt(t *testing.T) {
	var stderr bytes.Buffer
	cmd := runCommand(t, io.Discard, &stderr, "check", filepath.Join(testdata(t), "..")+"/...")
	time.Sleep(time.Second) // past signal.Notify; loading takes longer
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("exit: %v, want status 3; stderr:\n%s", err, stderr.String())
	}
	for _, w := range []string{"chordgo check: interrupted while ", "not analyzed: "} {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("standard error lacks %q:\n%s", w, stderr.String())
		}
	}
}

// TestUsage checks that each command's usage line names all its flags.
func TestUsage(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			code, _, help := runCaptured(t, c.name, "-h")
			if code != 0 {
				t.Fatalf("%s -h: exit status %d", c.name, code)
			}
			synopsis, _, _ := strings.Cut(help, "\n\n")
			flags := flagLine.FindAllStringSubmatch(help, -1)
			if len(flags) == 0 {
				t.Fatalf("no flags in:\n%s", help)
			}
			for _, f := range flags {
				if !regexp.MustCompile(`\[-` + f[1] + `[ =\]]`).MatchString(synopsis) {
					t.Errorf("usage line lacks -%s:\n%s", f[1], synopsis)
				}
			}
		})
	}
}

// TestFactsOut checks that facts -o writes into a new or an earlier run's
// directory, and refuses one with other files unless -force.
func TestFactsOut(t *testing.T) {
	racy := testdata(t, "races", "closure_write_racy")
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	otherSub := t.TempDir() // a directory that is not a rule file's inputs
	if err := os.Mkdir(filepath.Join(otherSub, "kobj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(otherSub, "kobj", "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	earlier := filepath.Join(t.TempDir(), "new") // not there yet
	if code, _, stderr := runCaptured(t, "facts", "-o", earlier, racy); code != 0 {
		t.Fatalf("facts: exit status %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"earlier run", []string{"-o", earlier, "-pointsto-only"}, 0, ""},
		{"other files", []string{"-o", other}, 2, "holds files that are not fact files (notes.txt); choose another directory, or pass -force"},
		{"other files in a directory", []string{"-o", otherSub}, 2, "holds files that are not fact files (kobj" + string(filepath.Separator) + ")"},
		{"forced", []string{"-o", other, "-force", "-pointsto-only"}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCaptured(t, append(append([]string{"facts"}, tc.args...), racy)...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit status %d, stderr %q; want %d and %q", code, stderr, tc.code, tc.stderr)
			}
		})
	}
	if data, err := os.ReadFile(filepath.Join(other, "notes.txt")); err != nil || string(data) != "mine" {
		t.Errorf("notes.txt: %q, %v; -force must leave other files alone", data, err)
	}
}

// TestCheckJSON checks the documented schema on one race, that two runs
// print the same bytes, and that times are only printed with -stats.
func TestCheckJSON(t *testing.T) {
	dir := testdata(t, "races", "closure_write_racy")
	code, out, _ := runCaptured(t, "check", "-json", dir)
	if code != 1 {
		t.Fatalf("exit status %d, want 1", code)
	}
	var rep struct {
		Races []struct {
			ID       string
			Location struct{ ID, Kind, Desc string }
			Accesses []struct {
				Pos, Op, Func string
				Goroutine     struct{ Kind, Entry string }
				Roots         []string
				Path          []struct{ Func, Pos string }
				Locks         []string
			}
		}
		Stats struct {
			Pairs  map[string]int
			Demand struct {
				Iterations int
				SitesByK   map[string]int
				RacePairs  []int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Races) != 1 || len(rep.Races[0].Accesses) != 2 {
		t.Fatalf("want one race of two accesses: %s", out)
	}
	race := rep.Races[0]
	if race.ID == "" || race.Location.ID == "" {
		t.Errorf("race id %q, location id %q: want both", race.ID, race.Location.ID)
	}
	if race.Location.Kind != "variable" {
		t.Errorf("location kind %q, want variable", race.Location.Kind)
	}
	kinds := map[string]bool{}
	for _, a := range race.Accesses {
		if !filepath.IsAbs(strings.Split(a.Pos, ":")[0]) || a.Op != "write" || a.Func == "" {
			t.Errorf("access %+v: want an absolute position, op write, a function", a)
		}
		if len(a.Roots) != 1 || !strings.HasSuffix(a.Roots[0], ".main") {
			t.Errorf("roots %v, want main", a.Roots)
		}
		if n := len(a.Path); n == 0 || a.Path[n-1].Pos != a.Pos {
			t.Errorf("path %v does not end at the access %s", a.Path, a.Pos)
		}
		if a.Locks == nil {
			t.Errorf("locks is null, want a list")
		}
		kinds[a.Goroutine.Kind] = true
	}
	if !kinds["root"] || !kinds["go"] {
		t.Errorf("goroutine kinds %v, want root and go", kinds)
	}
	if rep.Stats.Pairs["ultimate"] != 1 || rep.Stats.Pairs["original"] < 1 {
		t.Errorf("pairs %v", rep.Stats.Pairs)
	}
	if d := rep.Stats.Demand; d.Iterations < 1 || len(d.RacePairs) != d.Iterations || len(d.SitesByK) == 0 {
		t.Errorf("stats.demand %+v", d)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(out), "", "  "); err != nil || indented.String() != out {
		t.Errorf("JSON not indented as json.Indent does (%v):\n%s", err, out)
	}
	if strings.Contains(out, `"seconds"`) {
		t.Errorf("times without -stats:\n%s", out)
	}
	if _, again, _ := runCaptured(t, "check", "-json", dir); again != out {
		t.Errorf("two runs differ:\n%s\n%s", out, again)
	}
	if _, withStats, _ := runCaptured(t, "check", "-json", "-stats", dir); !strings.Contains(withStats, `"seconds"`) {
		t.Errorf("no times with -stats:\n%s", withStats)
	}
}

// TestCheckHTML checks that -html writes the report's pages while the text
// goes on as without it, and that a directory holding other files is
// refused with exit status 2.
func TestCheckHTML(t *testing.T) {
	racy := testdata(t, "races", "closure_write_racy")
	_, plain, _ := runCaptured(t, "check", racy)
	dir := filepath.Join(t.TempDir(), "report")
	code, stdout, stderr := runCaptured(t, "check", "-html", dir, racy)
	if code != 1 || stdout != plain {
		t.Errorf("with -html: exit status %d, want 1; standard output the same as without: %v\n%s", code, stdout == plain, shorten(stderr))
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "*", "*.html"))
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil || len(pages) != 2 {
		t.Errorf("pages written: index.html (%v) and %v; want the index, a location and a source page", err, pages)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCaptured(t, "check", "-html", dir, racy)
	if want := dir + " holds notes.txt, which is not part of a chordgo HTML report"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("-html into a directory with other files: exit status %d, want 2 and %q in:\n%s", code, want, shorten(stderr))
	}
}
