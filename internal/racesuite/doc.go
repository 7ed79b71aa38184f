// Package racesuite turns Go's own race-detector tests into an input for a
// static race detector, and scores the detector's reports against them.
//
// It takes the test files of the running toolchain's
// GOROOT/src/runtime/race/testdata (package race_test) and gives back a
// standalone module "racesuite" in a directory of the caller's choosing, plus
// the list of its TestRace* and TestNoRace* functions: each is a small program
// whose name says whether the dynamic race detector must report a race in it.
// Score compares a detector's races with those names and yields recall and
// false-alarm rate.
//
// A few tests depend on things a static analyzer cannot see (finalizers run by
// the GC, cgo, synchronization through the OS or network, races only through
// unsafe.Pointer arithmetic, tests skipped upstream); they are listed with a
// reason and left out of the score. testdata/index.tsv is our own index of
// the suite (file, verdict, whether a static analyzer can judge each test and
// why); TestIndex checks the copied suite and the exclusions against it.
//
// The copied module must be loaded with the build tag "race":
// mop_test.go calls runtime.RaceDisable, which exists only in race builds.
//
// The suite is copied at test or benchmark time into a temporary directory and
// never committed: it belongs to the Go distribution (and its license), and
// copying it from the toolchain that runs the tests keeps it in step with that
// toolchain's runtime and standard library instead of freezing one release.
package racesuite
