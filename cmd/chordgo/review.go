package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/chordgo/chordgo/pointsto"
	"github.com/chordgo/chordgo/reports"
)

// reviewFlags are check's flags for code review: a SARIF log besides the
// usual output, and which races to leave out (//chordgo:ignore comments
// always, -baseline, -new-from-rev).
type reviewFlags struct {
	sarif, baseline, writeBaseline, newFromRev *string

	known        reports.Baseline // -baseline's ids
	root         string           // module root: SARIF and baselines name files relative to it
	suppressions *reports.Suppressions
	changed      reports.ChangedLines // -new-from-rev's lines; nil without it
}

func addReviewFlags(fs *flag.FlagSet) *reviewFlags {
	return &reviewFlags{
		sarif:         fs.String("sarif", "", "also write the report as a SARIF 2.1.0 log to `file`"),
		baseline:      fs.String("baseline", "", "report only the races whose id is not in `file` (written by -write-baseline)"),
		writeBaseline: fs.String("write-baseline", "", "write the ids of the races found (less those suppressed) to `file`, for -baseline"),
		newFromRev:    fs.String("new-from-rev", "", "report only the races with an access on a line that git diff `rev` adds or changes"),
	}
}

// start reads the baseline and checks that the files to write have a
// directory, before the analysis, so that a wrong name fails at once.
func (rf *reviewFlags) start() error {
	for _, f := range []struct{ flag, name string }{{"-sarif", *rf.sarif}, {"-write-baseline", *rf.writeBaseline}} {
		if f.name == "" {
			continue
		}
		if dir, err := os.Stat(filepath.Dir(f.name)); err != nil || !dir.IsDir() {
			return fmt.Errorf("%s %s: no directory %s to write it in", f.flag, f.name, filepath.Dir(f.name))
		}
	}
	if *rf.baseline == "" {
		return nil
	}
	var err error
	rf.known, err = reports.ReadBaseline(*rf.baseline)
	return err
}

// loaded reads what needs the loaded program: the suppressions in its
// files, its module root, and the lines -new-from-rev changed there.
func (rf *reviewFlags) loaded(prog *pointsto.Program) error {
	for _, p := range prog.Packages {
		if p.Initial && p.ModuleDir != "" {
			rf.root = p.ModuleDir
			break
		}
	}
	if rf.root == "" { // files named outside a module, standard-library packages
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		rf.root = wd
	}
	var err error
	if rf.suppressions, err = reports.ReadSuppressions(prog); err != nil {
		return err
	}
	if *rf.newFromRev != "" {
		rf.changed, err = reports.GitChanges(rf.root, *rf.newFromRev)
	}
	return err
}

// filter takes out of rep the races suppressed, writes the baseline, then
// takes out the races in -baseline and those -new-from-rev did not touch.
func (rf *reviewFlags) filter(rep *reports.Report) error {
	rep.Suppress(rf.suppressions)
	if *rf.writeBaseline != "" {
		if err := writeFile(*rf.writeBaseline, rep.WriteBaseline); err != nil {
			return err
		}
	}
	if rf.known != nil {
		rep.OmitBaseline(rf.known)
	}
	if rf.changed != nil {
		rep.OmitUnchanged(rf.changed)
	}
	return nil
}

// finish writes the SARIF log and warns of suppressions that matched no
// race.
func (rf *reviewFlags) finish(rep *reports.Report) error {
	if *rf.sarif != "" {
		if err := writeFile(*rf.sarif, func(w io.Writer) error { return rep.WriteSARIF(w, version()) }); err != nil {
			return err
		}
	}
	for _, pos := range rf.suppressions.Unused() {
		fmt.Fprintf(os.Stderr, "chordgo check: warning: %s: //chordgo:ignore matches no race\n", pos)
	}
	return nil
}

// writeFile creates the file name and writes it with write.
func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %v", name, err)
	}
	return f.Close()
}

// version is chordgo's module version, "(devel)" when built from a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
