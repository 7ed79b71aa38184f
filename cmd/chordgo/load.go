package main

import (
	"context"
	"flag"
	"strings"

	"github.com/chordgo/chordgo/pointsto"
)

// loadFlags are the flags that say what to load, shared by the commands
// that analyze Go packages.
type loadFlags struct {
	tests     *bool
	tags, run *string
}

func addLoadFlags(fs *flag.FlagSet) *loadFlags {
	return &loadFlags{
		tests: fs.Bool("tests", true, "analyze test files and run tests, benchmarks, fuzz targets and examples as roots"),
		tags:  fs.String("tags", "", "comma-separated list of build `tags`"),
		run:   fs.String("run", "", "analyze only the tests, benchmarks, fuzz targets and examples matching `regexp`, as go test -run"),
	}
}

// load loads the packages the arguments name, printing the packages that
// failed to load; prog is nil only if nothing could be loaded. When ctx
// ends, loading stops.
func (lf *loadFlags) load(ctx context.Context, patterns []string) (*pointsto.Program, error) {
	cfg := pointsto.Config{Patterns: patterns, Tests: *lf.tests, Run: *lf.run, Context: ctx}
	cfg.Tags = lf.tagList()
	prog, err := pointsto.Load(cfg)
	if prog != nil {
		printLoadErrors(prog.Errors)
	}
	return prog, err
}

// tagList is -tags as a list.
func (lf *loadFlags) tagList() []string {
	return strings.FieldsFunc(*lf.tags, func(r rune) bool { return r == ',' || r == ' ' })
}
