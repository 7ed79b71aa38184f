package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// kindsProgram races on a field, an element, a map, a variable and a
// global, the global under a lock on one side; a comment with two
// characters outside ASCII comes before the variable's write (its byte
// column is 15, its column in UTF-16 code units 11). go run -race reports
// each of these races.
const kindsProgram = `package main

import "sync"

type T struct{ n int }

var (
	g  int
	mu sync.Mutex
)

func main() {
	t := &T{}
	s := make([]int, 1)
	m := map[int]int{}
	x := 0
	done := make(chan bool)
	go func() {
		t.n = 1
		s[0] = 1
		m[0] = 1
		x = 1
		mu.Lock()
		g = 1
		mu.Unlock()
		done <- true
	}()
	t.n = 2
	s[0] = 2
	m[0] = 2
	/* 日本 */ x = 2
	g = 2
	<-done
	println(x)
}
`

// sarifSchemaForTest compiles the SARIF 2.1.0 schema of testdata (OASIS,
// errata 01), asserting formats (uri, uri-reference) too.
func sarifSchemaForTest(t *testing.T) *jsonschema.Schema {
	t.Helper()
	const name = "testdata/sarif-schema-2.1.0.json"
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(name)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateSARIF(sch *jsonschema.Schema, log []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(log))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// sarifLog is what the tests read of a SARIF log.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name, Version, InformationURI string
				Rules                         []struct{ ID string }
			}
		}
		OriginalURIBaseIDs map[string]struct{ URI string }
		Results            []struct {
			RuleID    string
			RuleIndex int
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           struct{ StartLine, StartColumn int }
				}
				Message struct{ Text string }
			}
			CodeFlows []struct {
				ThreadFlows []struct {
					Message   struct{ Text string }
					Locations []struct {
						Location struct {
							PhysicalLocation struct {
								Region struct{ StartLine int }
							}
						}
						Kinds []string
					}
				}
			}
			PartialFingerprints map[string]string
		}
	}
}

// TestSARIF checks the log of kindsProgram against the SARIF 2.1.0 schema
// and against the JSON report: a result per race with its id as
// fingerprint, a rule per location kind, both accesses as locations
// relative to the module root with columns in UTF-16 code units, and the
// call paths as thread flows ending at the accesses, the lock held in the
// message.
func TestSARIF(t *testing.T) {
	sch := sarifSchemaForTest(t)
	dir := writeModule(t, kindsProgram)
	r, res := analyze(t, dir)
	rep := Build(r, res, Options{MaxPaths: DefaultMaxPaths, Root: dir})
	var out, js bytes.Buffer
	if err := rep.WriteSARIF(&out, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	if err := validateSARIF(sch, out.Bytes()); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, out.String())
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, out.Bytes(), "", "  "); err != nil || indented.String() != out.String() {
		t.Errorf("not laid out as json.Indent does (%v)", err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var want struct {
		Races []struct {
			ID       string
			Location struct{ Kind string }
			Accesses []struct{ Pos string }
		}
	}
	var log sarifLog
	if err := json.Unmarshal(js.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Name != "chordgo" || d.Version != "v1.2.3" || d.InformationURI == "" {
		t.Errorf("tool.driver %+v", d)
	}
	if got, want := run.OriginalURIBaseIDs[sarifRootID].URI, "file://"+filepath.ToSlash(dir)+"/"; got != want {
		t.Errorf("%s is %q, want %q", sarifRootID, got, want)
	}
	if len(run.Results) != len(want.Races) || len(want.Races) != 5 {
		t.Fatalf("%d results, %d races in the JSON report; want 5 each", len(run.Results), len(want.Races))
	}
	var kinds []string
	for i, result := range run.Results {
		race := want.Races[i]
		kinds = append(kinds, race.Location.Kind)
		if result.RuleID != "race/"+race.Location.Kind || run.Tool.Driver.Rules[result.RuleIndex].ID != result.RuleID {
			t.Errorf("result %d: rule %s (index %d), location kind %s", i, result.RuleID, result.RuleIndex, race.Location.Kind)
		}
		if got := result.PartialFingerprints[sarifFingerprint]; got != race.ID {
			t.Errorf("result %d: fingerprint %q, want the race id %q", i, got, race.ID)
		}
		if len(result.Locations) != 2 || len(result.CodeFlows) != 1 || len(result.CodeFlows[0].ThreadFlows) != 2 {
			t.Fatalf("result %d: %d locations, code flows %+v; want 2 locations and 2 thread flows", i, len(result.Locations), result.CodeFlows)
		}
		for k, loc := range result.Locations {
			pl := loc.PhysicalLocation
			if pl.ArtifactLocation.URI != "main.go" || pl.ArtifactLocation.URIBaseID != sarifRootID {
				t.Errorf("result %d: artifact %+v, want main.go relative to %s", i, pl.ArtifactLocation, sarifRootID)
			}
			line, column := lineColumn(t, race.Accesses[k].Pos)
			if race.Location.Kind == "variable" && line == 31 {
				column = 11 // after "/* 日本 */": 6 bytes, 2 code units
			}
			if pl.Region.StartLine != line || pl.Region.StartColumn != column {
				t.Errorf("result %d: region %+v, want line %d column %d (%s)", i, pl.Region, line, column, race.Accesses[k].Pos)
			}
			flow := result.CodeFlows[0].ThreadFlows[k].Locations
			if last := flow[len(flow)-1]; last.Location.PhysicalLocation.Region.StartLine != line || !slices.Equal(last.Kinds, []string{"memory"}) {
				t.Errorf("result %d: thread flow %d ends at %+v, want the access on line %d", i, k, last, line)
			}
		}
		if race.Location.Kind == "global" && !strings.Contains(result.Locations[1].Message.Text, "locks held: &mu (main.go:9)") {
			t.Errorf("result %d: the goroutine's write holds mu: %q", i, result.Locations[1].Message.Text)
		}
		if strings.Contains(result.Message.Text, dir) {
			t.Errorf("result %d: message names files by absolute path: %q", i, result.Message.Text)
		}
	}
	slices.Sort(kinds)
	if strings.Join(kinds, " ") != "element field global map variable" {
		t.Errorf("location kinds %v", kinds)
	}
}

var posLineColumn = regexp.MustCompile(`:(\d+):(\d+)$`)

// lineColumn returns the line and column of a position "FILE:line:col".
func lineColumn(t *testing.T, pos string) (line, column int) {
	t.Helper()
	m := posLineColumn.FindStringSubmatch(pos)
	if m == nil {
		t.Fatalf("position %q", pos)
	}
	line, _ = strconv.Atoi(m[1])
	column, _ = strconv.Atoi(m[2])
	return line, column
}

// TestSARIFSchemaRejects checks that the validator of TestSARIF fails on
// logs that break the schema, so that its passing means something.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := sarifSchemaForTest(t)
	r, res := analyze(t, writeModule(t, twoLocations))
	var out bytes.Buffer
	if err := Build(r, res, Options{}).WriteSARIF(&out, "v1"); err != nil {
		t.Fatal(err)
	}
	if err := validateSARIF(sch, out.Bytes()); err != nil {
		t.Fatalf("not valid: %v", err)
	}
	for _, tc := range []struct{ name, old, new string }{
		{"line 0", `"startLine": \d+`, `"startLine": 0`},
		{"no version", `"version": "2.1.0",`, ``},
		{"unknown level", `"level": "warning"`, `"level": "severe"`},
		{"unknown member", `"ruleIndex": `, `"ruleNumber": `},
		{"URI not a URI", `"uri": "file://`, `"uri": "file://[`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := true
			broken := regexp.MustCompile(tc.old).ReplaceAllStringFunc(out.String(), func(s string) string {
				if !first {
					return s
				}
				first = false
				return tc.new
			})
			if first {
				t.Fatalf("%q not in the log", tc.old)
			}
			if err := validateSARIF(sch, []byte(broken)); err == nil {
				t.Errorf("valid after replacing %q by %q", tc.old, tc.new)
			}
		})
	}
}
