// Package realcode measures chordgo on real Go modules: a pinned corpus,
// a harness that runs "chordgo check -json ./..." in each module's root
// under a time and memory limit, and the triage of what it reports.
//
// It takes the corpus (Corpus: module@version, downloaded at run time with
// "go mod download" into a temporary GOMODCACHE and copied to a writable
// directory, never into the repository; the repository itself is copied
// from its checkout), a chordgo binary, and the verdicts of triage.tsv. It
// gives, per module: wall and CPU time, peak memory (the child's rusage),
// exit status or the limit that ended the run, the races (access pairs)
// and their distinct locations, and the precision of the reported
// locations (true / reported) against the verdicts, with the locations
// that have none and the verdicts that match nothing.
//
// chordgo runs with its own budgets (-timeout 90% of the module's wall
// limit, -mem 70% of its memory cap), so that a long run ends with the
// races of the demand loop's last completed run, or exit status 3 when
// none completed; the harness kills it (with its process group) only if
// it passes the limits anyway.
//
// It is the measurement basis of the real-code issues (precision on real
// modules, speed on them); it implements no part of Naik's thesis, but
// plays the role of its benchmark tables (Table 2.4 and the per-benchmark
// reports of chapter 5) for Go modules.
//
// triage.tsv has one verdict per reported location (Verdict), keyed by the
// location's id in the report (stable when lines move), with its fields
// in words for the reader: false with the class of issue 11 (Classes) and
// the fact the analysis misses, or true with a witness: a test under
// testdata/witness/MODULE that is copied into the module and that go test
// -race reports the race on.
//
// The corpus run needs the module proxy and minutes per module, so it is
// behind the build tag "realcode" (README.md, BENCHMARKS.md):
//
//	nice -n 10 go test -tags realcode ./internal/realcode -run TestCorpus -timeout 0 -v [-args -demand=false -out DIR]
//	go test -tags realcode ./internal/realcode -run TestWitnesses -v
//
// TestCorpus fails on a reported location without a verdict, and logs the
// verdicts that match nothing and those whose location is now described
// otherwise; TestWitnesses fails when a witness no longer races. The
// default tests check the parsing of reports and of the triage file, the
// matching between them, the limits of a run, and triage.tsv itself.
package realcode
