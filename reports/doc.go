// Package reports turns the races of package races into what chordgo
// check prints: text that reads like the Go race detector's reports, JSON,
// and SARIF 2.1.0 for code scanning services. It takes the points-to
// result and the races (package races, or the demand loop's last run) and
// gives a Report that groups the races by location, Chord's by-field view
// (Naik's thesis, section 2.8: a finding is a field, element, map, global
// or variable of an abstract object, with its access pairs), leaves out
// the races that code review does not want to see again (suppressed,
// known, or on lines a change does not touch), and writes them one at a
// time. Other writers (package reports/html) take the same Report: Each
// describes its races one at a time, and Func says where each function a
// race names is declared and in which package.
//
// # Cost
//
// Build only groups and sorts the races; each race is described, its call
// paths computed, when it is written, and dropped after. Only the first
// Options.MaxPaths races of a location (chordgo check -paths, default 3)
// get call paths; the others are one line each in the text and have empty
// paths in the JSON. Memory and output so grow with the number of races,
// not with races times path length.
//
// Programs analyzed in separate runs (demand.Each: each main package, each
// package's test binary) give a report each; [Merge] joins them into one:
// a location shared by several programs once with the pairs of all, a
// race found in several once with the roots of all. Each program's report
// is described when its run is done ([Report.Describe]), so that no
// program's analysis is kept while others run: memory grows with the
// number of races, not with the programs. Merge does not depend on the
// order of its reports nor on how programs are grouped in them, so the
// JSON reports of shards of a module's programs (chordgo check -shard),
// read back with [ReadJSON], merge into the bytes of the unsharded report
// (chordgo merge). A shard's report lists the ids of the races its
// filters took out (stats.filteredIds), so that a race filtered out in
// two shards is counted once.
//
// # Ids
//
// A race's id and its location's id do not change when lines move: they
// hash what the two accesses and the location are, not where. An access is
// named by its function, its operation, its shape (the kind of instruction
// and how its address is formed: a field of a type, an element, a global,
// a captured variable) and its ordinal among same-shaped accesses of its
// function; a location by its sub-object path (fields, [*], [key], [value]) from
// its root object, and the root by its global's name or by its function,
// kind, type and ordinal among same allocations of that function. An edit
// inside a function can renumber that function's later accesses of the
// same shape (or its closures, main$1, main$2), and so change their races'
// ids.
//
// # Filters
//
// Filters take races out of a report and count them in Stats.Filtered,
// each race under the first that takes it, in this order:
//
//   - Suppress: a //chordgo:ignore <reason> comment at the end of an
//     access's line, or alone on the line above it, takes out every race
//     of that access. ReadSuppressions reads the comments from the files
//     of the packages named (pointsto.Package.Files); one without a reason
//     or another //chordgo: directive is an error naming its position, and
//     Suppressions.Unused names those that matched no race. A suppression
//     is the programmer's claim that the race is harmless, not a proof.
//   - OmitBaseline: races whose id is in a baseline file. WriteBaseline
//     writes one (after suppressions): a header of # lines, then a line a
//     race, sorted, "ID<TAB>description", the description naming files
//     relative to Options.Root; ReadBaseline reads the ids back (blank
//     lines and # lines ignored; anything else not starting with an id is
//     an error naming file:line).
//   - OmitUnchanged: races with no access on a line that git diff -U0 REV
//     adds or changes in the working tree (GitChanges, run in the module
//     root; untracked files are not in git diff). A race a change makes
//     without touching either access's line (a Lock deleted) is not
//     reported by it; a baseline, by id, does report it.
//
// Stats.Reported, Stats.Locations and the summary line count what is left.
//
// # SARIF (chordgo check -sarif FILE)
//
// WriteSARIF writes one run with tool.driver chordgo (version, information
// URI, a rule per location kind: race/field, race/element, race/map,
// race/global, race/variable, race/object) and one result per access
// pair: ruleId its location's kind; message the race in words; locations
// its two accesses, the write first, each with a message saying what it
// does under which locks; relatedLocations the object's allocation; the
// race id as partialFingerprints["chordgoRaceId/v1"] and properties
// raceId and locationId. Files under Options.Root are relative URIs with
// uriBaseId SRCROOT (originalUriBaseIds gives its file:// URI), others
// absolute file:// URIs; regions have the start line and the start column
// in UTF-16 code units, SARIF's default. The races shown with call paths
// (Options.MaxPaths) have a codeFlow of two threadFlows, one per access:
// the goroutine in its message, then each frame from the goroutine's entry
// (kind call, with its function as logical location) to the access (kind
// memory). invocations[0] says whether every package loaded, with the
// load errors as notifications; run.properties.filtered counts the races
// left out. The log is laid out as json.Indent lays it out.
//
// # Text (chordgo check)
//
// One block per location: "Location: desc", its id and number of access
// pairs, then each pair the way the race detector prints a race (the write
// first; each access with its goroutine, call path innermost frame first,
// and locks held), then "Race ID". Past -paths, a pair is a line: "Write at
// POS, previous read at POS (race ID)". The last line is "chordgo: N
// locations, M access pairs", followed by "(not reported: ...)" when
// filters took races out. A later stage may add a note to each race
// (Report.Annotate: chordgo confirm's "Confirmed ..." line), printed
// after "Race ID" and after ": " at the end of a one-line pair.
//
// # JSON schema (chordgo check -json)
//
//	{
//	  "races": [{
//	    "id": "16 hex digits, stable across edits that move lines",
//	    "location": {"id": "16 hex digits, stable likewise",
//	                 "kind": "field|element|map|global|variable|object",
//	                 "field": "(pkg.T).f", "global": "pkg.v",
//	                 "object": "FILE:line:col", "type": "...", "desc": "..."},
//	    "accesses": [{                      // the write first
//	      "pos": "ABSOLUTE-FILE:line:col",
//	      "op": "read|write", "atomic": true,
//	      "func": "SSA name of the function",
//	      "goroutine": {"kind": "root|init|go", "entry": "SSA name",
//	                    "spawn": ["FILE:line:col of each go statement, root first"]},
//	      "roots": ["SSA names of the entry functions the access is reached from"],
//	      "path": [{"func": "SSA name", "pos": "FILE:line:col",  // entry first, the access last; [] past -paths
//	                "locks": ["lock held at the call"]}],          // omitted when none, and in the access's frame
//	      "locks": ["lock held at the access"]
//	    }, {...}]
//	  }],
//	  "errors": ["packages that failed to load"],
//	  "stats": {"pairs": {"original": n, "aliasing": n, "escaping": n,
//	                      "parallel": n, "unlocked": n, "ultimate": n},
//	            "reported": n,                      // ultimate pairs less those filtered
//	            "filtered": {"suppressed": n, "baseline": n, "unchanged": n},
//	            "locations": n,                     // of the pairs reported
//	            "seconds": {"load": s, "ssa": s, "facts": s, "pointsto-ci": s, "pointsto": s,
//	                        "goroutines": s, "accesses": s, "aliasing": s, "escaping": s,
//	                        "parallel": s, "unlocked": s, "report": s,   // only with -stats
//	                        "callpaths": s},  // the part of unlocked that proves per call path
//	            "sizes": {"goroutines": n, "contexts": n},
//	            "demand": {"iterations": n, "sitesByK": {"k": n}, "contexts": [n],
//	                       "estimates": ["..."], "racePairs": [n],
//	                       "seconds": [s],                                // only with -stats
//	                       "capped": ["site"]},
//	            "programs": [{"name": "PKG (tests)|PKG (main)",  // each program analyzed, by name
//	                          "pairs": {...}, "sizes": {...},     // its own funnel, before dedup and filters
//	                          "demand": {...}}],                  // its own loop
//	            "filteredIds": {"suppressed": ["race id"], "baseline": [...], "unchanged": [...]}}  // only with -shard
//	}
//
// The counts of stats are the sums of those of stats.programs, but for
// ultimate, the distinct races (a race of two programs once), and the
// demand loops' lists, which follow one another in program order.
// Fields are only added, never renamed or removed. Without -stats the
// output has no times, so two runs on one program print the same bytes.
// The "report" time is that of grouping and sorting; paths are computed
// while writing. Races are grouped by location, locations ordered by
// their first race, and the races of a location sorted by the positions
// of their accesses. A race stands for all the goroutine pairs in which
// its accesses may race; the goroutines and paths shown are those of the
// first pair. A path is a shortest one in the context-sensitive call
// graph, without go edges, from the goroutine's entry to the access,
// found by breadth-first search over sorted edges so that the same
// program gives the same report.
package reports
