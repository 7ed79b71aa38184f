package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/chordgo/chordgo/internal/overlay"
)

const counterFile = `//go:build race

package runtime

import "internal/runtime/atomic"

// Incremented by the copy of race_amd64.s at the entry of each check.
var raceChecksCompiler, raceChecksRuntime uint64

var raceChecksPrinted uint32

// raceChecksPrint prints the counters once.
func raceChecksPrint() {
	if atomic.Cas(&raceChecksPrinted, 0, 1) {
		print("chordgo-race-checks: compiler ", atomic.Load64(&raceChecksCompiler), " runtime ", atomic.Load64(&raceChecksRuntime), "\n")
	}
}
`

// An edit inserts text before or after the first occurrence of a line.
type edit struct {
	line, text string
	after      bool
}

// counting returns the edits of race_amd64.s: a LOCK INCQ of its counter
// at the entry of each check, after its TEXT line.
func counting() []edit {
	var edits []edit
	for _, e := range []struct{ entry, counter string }{
		{"raceread<ABIInternal>(SB), NOSPLIT, $0-8", "raceChecksCompiler"},
		{"racewrite<ABIInternal>(SB), NOSPLIT, $0-8", "raceChecksCompiler"},
		{"racereadrange<ABIInternal>(SB), NOSPLIT, $0-16", "raceChecksCompiler"},
		{"racewriterange<ABIInternal>(SB), NOSPLIT, $0-16", "raceChecksCompiler"},
		{"racereadpc(SB), NOSPLIT, $0-24", "raceChecksRuntime"},
		{"racewritepc(SB), NOSPLIT, $0-24", "raceChecksRuntime"},
		{"racereadrangepc1(SB), NOSPLIT, $0-24", "raceChecksRuntime"},
		{"racewriterangepc1(SB), NOSPLIT, $0-24", "raceChecksRuntime"},
	} {
		edits = append(edits, edit{line: "TEXT\truntime·" + e.entry + "\n", text: "\tLOCK\n\tINCQ\truntime·" + e.counter + "(SB)\n", after: true})
	}
	return edits
}

// printing are the edits of proc.go: the counters are printed when
// main.main returns and when os.Exit is called.
var printing = []edit{
	{line: "\t\tracefini() // does not return\n", text: "\t\traceChecksPrint()\n"},
	{line: "\trunExitHooks(exitCode)\n", text: "\traceChecksPrint()\n"},
}

func main() {
	out := flag.String("o", "", "write the overlay `file` here (the copies go into a directory beside it: its name without extension, plus .files)")
	with := flag.String("with", "", "merge the overlay `file` into it")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: countchecks -o counting.json [-with other.json]")
		os.Exit(2)
	}
	if err := write(*out, *with); err != nil {
		fmt.Fprintln(os.Stderr, "countchecks:", err)
		os.Exit(1)
	}
}

func write(out, with string) error {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	runtime := filepath.Join(strings.TrimSpace(string(goroot)), "src", "runtime")
	edits := map[string][]overlay.Insertion{}
	for file, fileEdits := range map[string][]edit{"race_amd64.s": counting(), "proc.go": printing} {
		file = filepath.Join(runtime, file)
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		for _, e := range fileEdits {
			i := strings.Index(string(src), e.line)
			if i < 0 {
				return fmt.Errorf("%s: no line %q: another Go version's runtime", file, strings.TrimSpace(e.line))
			}
			if e.after {
				i += len(e.line)
			}
			edits[file] = append(edits[file], overlay.Insertion{Offset: i, Text: e.text})
		}
	}
	dir := strings.TrimSuffix(out, filepath.Ext(out)) + ".files"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	added := map[string][]byte{filepath.Join(runtime, "zz_chordgo_racecount.go"): []byte(counterFile)}
	if err := overlay.Write(out, dir, edits, added); err != nil {
		return err
	}
	if with == "" {
		return nil
	}
	var mine, other struct{ Replace map[string]string }
	for file, o := range map[string]*struct{ Replace map[string]string }{out: &mine, with: &other} {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, o); err != nil {
			return fmt.Errorf("%s: %v", file, err)
		}
	}
	for k, v := range other.Replace {
		if _, ok := mine.Replace[k]; ok {
			return fmt.Errorf("%s and %s both replace %s", out, with, k)
		}
		mine.Replace[k] = v
	}
	data, err := json.MarshalIndent(mine, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(data, '\n'), 0o644)
}
