package reports

import (
	"bufio"
	"bytes"
	"encoding/json"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// SARIF 2.1.0 (OASIS): the parts of the schema chordgo writes.
type (
	sarifRun struct {
		Tool               sarifTool                `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
		Invocations        []sarifInvocation        `json:"invocations"`
		Properties         sarifRunProperties       `json:"properties"`
	}
	sarifRunProperties struct {
		Filtered Filtered `json:"filtered"` // races not reported
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string             `json:"id"`
		Name                 string             `json:"name"`
		ShortDescription     sarifMessage       `json:"shortDescription"`
		FullDescription      sarifMessage       `json:"fullDescription"`
		Help                 sarifMessage       `json:"help"`
		HelpURI              string             `json:"helpUri"`
		DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
		Properties           sarifRuleTags      `json:"properties"`
	}
	sarifConfiguration struct {
		Level string `json:"level"`
	}
	sarifRuleTags struct {
		Tags []string `json:"tags"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		CodeFlows           []sarifCodeFlow   `json:"codeFlows,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
		Properties          sarifResultIDs    `json:"properties"`
	}
	sarifResultIDs struct {
		RaceID     string `json:"raceId"`
		LocationID string `json:"locationId"`
	}
	sarifLocation struct {
		PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
		LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
		Message          *sarifMessage          `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           *sarifRegion  `json:"region,omitempty"`
	}
	sarifArtifact struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"` // in UTF-16 code units, SARIF's default columnKind
	}
	sarifLogicalLocation struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	}
	sarifCodeFlow struct {
		Message     sarifMessage      `json:"message"`
		ThreadFlows []sarifThreadFlow `json:"threadFlows"`
	}
	sarifThreadFlow struct {
		Message   sarifMessage              `json:"message"`
		Locations []sarifThreadFlowLocation `json:"locations"`
	}
	sarifThreadFlowLocation struct {
		Location     sarifLocation `json:"location"`
		NestingLevel int           `json:"nestingLevel"`
		Kinds        []string      `json:"kinds"`
	}
)

const (
	sarifSchema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// sarifRootID names Options.Root in URIs: files under it are relative
	// to it, so that a log made in one checkout reads in another.
	sarifRootID = "SRCROOT"
	// sarifFingerprint keys the race id in partialFingerprints: code
	// scanning services match results across runs by it.
	sarifFingerprint = "chordgoRaceId/v1"
	informationURI   = "https://github.com/chordgo/chordgo"
)

// sarifRules are the rules of chordgo's results: one per location kind
// (Location.Kind), in this order.
var sarifRules = func() []sarifRule {
	var rules []sarifRule
	for _, k := range []struct{ kind, name, what string }{
		{"field", "FieldRace", "a field of one object"},
		{"element", "ElementRace", "an element of one array or slice"},
		{"map", "MapRace", "one map"},
		{"global", "GlobalRace", "a package-level variable"},
		{"variable", "VariableRace", "a variable shared by goroutines (most often captured by a closure)"},
		{"object", "ObjectRace", "one object"},
	} {
		rules = append(rules, sarifRule{
			ID:               "race/" + k.kind,
			Name:             k.name,
			ShortDescription: sarifMessage{"Data race on " + k.what},
			FullDescription: sarifMessage{"Two goroutines may access " + k.what + " at the same time, at least one of them writing, " +
				"with no happens-before order between them (go statement, channel, sync.WaitGroup, sync.Once) and no common lock."},
			Help: sarifMessage{"Order the two accesses or hold one lock around both. If the race is understood and harmless, " +
				ignoreDirective + " <reason> at the end of either access's line, or alone on the line above it, takes it out of the report."},
			HelpURI:              informationURI,
			DefaultConfiguration: sarifConfiguration{Level: "warning"},
			Properties:           sarifRuleTags{Tags: []string{"concurrency", "data-race"}},
		})
	}
	return rules
}()

// WriteSARIF writes the report as a SARIF 2.1.0 log, one result at a
// time: a result per race (access pair), its rule the location's kind,
// both accesses as its locations, the object's allocation as a related
// location, and the two call paths as a code flow of two thread flows
// (the races shown with paths, Options.MaxPaths). The race id is its
// partial fingerprint. version is chordgo's, for tool.driver.
func (rep *Report) WriteSARIF(w io.Writer, version string) error {
	s := &sarifWriter{rep: rep, files: map[string]*sourceLines{}}
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: "chordgo", Version: version, InformationURI: informationURI, Rules: sarifRules}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: len(rep.Errors) == 0}},
		Properties:  sarifRunProperties{Filtered: rep.Stats.Filtered},
	}
	for _, e := range rep.Errors {
		run.Invocations[0].Notifications = append(run.Invocations[0].Notifications,
			sarifNotification{Level: "error", Message: sarifMessage{"package not analyzed: " + e}})
	}
	if rep.opts.Root != "" {
		root := &url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Clean(rep.opts.Root))}
		root.Path = strings.TrimSuffix(root.Path, "/") + "/"
		run.OriginalURIBaseIDs = map[string]sarifArtifact{sarifRootID: {URI: root.String()}}
	}
	// The run's other members, then its results, laid out as json.Indent
	// lays out the whole log.
	head, err := json.MarshalIndent(run, "    ", "  ")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n  \"$schema\": \"" + sarifSchema + "\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    ")
	bw.Write(bytes.TrimSuffix(head, []byte("\n    }")))
	bw.WriteString(",\n      \"results\": ")
	if err := rep.writeArray(bw, "        ", func(race Race) any { return s.result(race) }); err != nil {
		return err
	}
	bw.WriteString("\n    }\n  ]\n}\n")
	return bw.Flush()
}

type sarifWriter struct {
	rep   *Report
	files map[string]*sourceLines // to count columns in UTF-16 code units
}

// sourceLines is a file's contents and where its lines start; nil when
// the file cannot be read.
type sourceLines struct {
	src    []byte
	starts []int
}

func (s *sarifWriter) result(race Race) sarifResult {
	rep := s.rep
	ruleIndex := len(sarifRules) - 1
	for i, r := range sarifRules {
		if r.ID == "race/"+race.Location.Kind {
			ruleIndex = i
		}
	}
	a, b := race.Accesses[0], race.Accesses[1]
	out := sarifResult{
		RuleID:    sarifRules[ruleIndex].ID,
		RuleIndex: ruleIndex,
		Message: sarifMessage{rep.relative("Data race on " + race.Location.Desc + ": " + strings.ToLower(opName(a, false)) + " at " + a.Pos +
			" by " + describe(a.Goroutine) + ", " + strings.ToLower(opName(b, false)) + " at " + b.Pos + " by " + describe(b.Goroutine))},
		PartialFingerprints: map[string]string{sarifFingerprint: race.ID},
		Properties:          sarifResultIDs{RaceID: race.ID, LocationID: race.Location.ID},
	}
	flow := sarifCodeFlow{Message: sarifMessage{"Each goroutine's call path from its entry to its access"}}
	for _, acc := range race.Accesses {
		what := sarifMessage{s.accessText(acc, race.Location)}
		out.Locations = append(out.Locations, sarifLocation{PhysicalLocation: s.physical(acc.pos), Message: &what})
		if len(acc.Path) == 0 {
			continue
		}
		thread := sarifThreadFlow{Message: sarifMessage{rep.relative(describe(acc.Goroutine))}}
		for i, fr := range acc.Path {
			loc := sarifThreadFlowLocation{
				Location: sarifLocation{
					PhysicalLocation: s.physical(fr.pos),
					LogicalLocations: []sarifLogicalLocation{{FullyQualifiedName: fr.Func, Kind: "function"}},
					Message:          &sarifMessage{"call in " + fr.Func},
				},
				NestingLevel: i,
				Kinds:        []string{"call"},
			}
			if i == len(acc.Path)-1 {
				loc.Location.Message, loc.Kinds = &what, []string{"memory"}
			}
			thread.Locations = append(thread.Locations, loc)
		}
		flow.ThreadFlows = append(flow.ThreadFlows, thread)
	}
	if len(flow.ThreadFlows) > 0 {
		out.CodeFlows = []sarifCodeFlow{flow}
	}
	if race.Location.object.IsValid() {
		out.RelatedLocations = []sarifLocation{{PhysicalLocation: s.physical(race.Location.object),
			Message: &sarifMessage{"the object is allocated here"}}}
	}
	return out
}

// accessText says what an access does, in which function, under which
// locks.
func (s *sarifWriter) accessText(a Access, loc Location) string {
	locks := "no lock held"
	if len(a.Locks) > 0 {
		locks = "locks held: " + strings.Join(a.Locks, ", ")
	}
	return s.rep.relative(opName(a, false) + " of " + loc.Desc + " in " + a.Func + " (" + locks + ")")
}

// physical locates pos: a URI relative to Options.Root for files under it,
// absolute otherwise; nil for no position.
func (s *sarifWriter) physical(pos token.Position) *sarifPhysicalLocation {
	if !pos.IsValid() {
		return nil
	}
	loc := &sarifPhysicalLocation{Region: &sarifRegion{StartLine: pos.Line, StartColumn: s.column(pos)}}
	if root := s.rep.opts.Root; root != "" {
		if rel, err := filepath.Rel(root, pos.Filename); err == nil && filepath.IsLocal(rel) {
			loc.ArtifactLocation = sarifArtifact{URI: (&url.URL{Path: filepath.ToSlash(rel)}).String(), URIBaseID: sarifRootID}
			return loc
		}
	}
	loc.ArtifactLocation.URI = (&url.URL{Scheme: "file", Path: filepath.ToSlash(pos.Filename)}).String()
	return loc
}

// column converts pos's byte column to UTF-16 code units (SARIF's
// default columnKind); 0, no column, when the file cannot be read.
func (s *sarifWriter) column(pos token.Position) int {
	f, ok := s.files[pos.Filename]
	if !ok {
		if src, err := os.ReadFile(pos.Filename); err == nil {
			f = &sourceLines{src: src, starts: []int{0}}
			for i, c := range src {
				if c == '\n' {
					f.starts = append(f.starts, i+1)
				}
			}
		}
		s.files[pos.Filename] = f
	}
	if f == nil || pos.Column == 0 || pos.Line > len(f.starts) || f.starts[pos.Line-1]+pos.Column-1 > len(f.src) {
		return 0
	}
	units := 0
	for prefix := f.src[f.starts[pos.Line-1] : f.starts[pos.Line-1]+pos.Column-1]; len(prefix) > 0; {
		r, size := utf8.DecodeRune(prefix)
		units += utf16.RuneLen(r)
		prefix = prefix[size:]
	}
	return units + 1
}
