// Package reports turns the races of package races into what chordgo
// check prints: text that reads like the Go race detector's reports, and
// JSON. It takes the points-to result and the races (package races, or the
// demand loop's last run) and gives a Report that groups the races by
// location, Chord's by-field view (Naik's thesis, section 2.8: a finding
// is a field, element, map, global or variable of an abstract object, with
// its access pairs), and writes them one at a time.
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
// # Ids
//
// A race's id and its location's id do not change when lines move: they
// hash what the two accesses and the location are, not where. An access is
// named by its function, its operation, its shape (the kind of instruction
// and how its address is formed: a field of a type, an element, a global,
// a captured variable) and its ordinal among same-shaped accesses of its
// function; a location by its sub-object path (fields, [*], [map]) from
// its root object, and the root by its global's name or by its function,
// kind, type and ordinal among same allocations of that function. An edit
// inside a function can renumber that function's later accesses of the
// same shape (or its closures, main$1, main$2), and so change their races'
// ids.
//
// # Text (chordgo check)
//
// One block per location: "Location: desc", its id and number of access
// pairs, then each pair the way the race detector prints a race (the write
// first; each access with its goroutine, call path innermost frame first,
// and locks held), then "Race ID". Past -paths, a pair is a line: "Write at
// POS, previous read at POS (race ID)". The last line is "chordgo: N
// locations, M access pairs".
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
//	      "path": [{"func": "SSA name", "pos": "FILE:line:col"}],  // entry first, the access last; [] past -paths
//	      "locks": ["lock held at the access"]
//	    }, {...}]
//	  }],
//	  "errors": ["packages that failed to load"],
//	  "stats": {"pairs": {"original": n, "aliasing": n, "escaping": n,
//	                      "parallel": n, "unlocked": n, "ultimate": n},
//	            "locations": n,
//	            "seconds": {"load": s, "ssa": s, "facts": s, "pointsto-ci": s, "pointsto": s,
//	                        "goroutines": s, "accesses": s, "aliasing": s, "escaping": s,
//	                        "parallel": s, "unlocked": s, "report": s},  // only with -stats
//	            "sizes": {"goroutines": n, "contexts": n},
//	            "demand": {"iterations": n, "sitesByK": {"k": n}, "contexts": [n],
//	                       "estimates": ["..."], "racePairs": [n],
//	                       "seconds": [s],                                // only with -stats
//	                       "capped": ["site"]}}
//	}
//
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
