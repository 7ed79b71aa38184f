// Package reports turns the races of package races into what chordgo
// check prints: text that reads like the Go race detector's reports, and
// JSON.
//
// # JSON schema (chordgo check -json)
//
//	{
//	  "races": [{
//	    "location": {"kind": "field|element|map|global|variable|object",
//	                 "field": "(pkg.T).f", "global": "pkg.v",
//	                 "object": "FILE:line:col", "type": "...", "desc": "..."},
//	    "accesses": [{                      // the write first
//	      "pos": "ABSOLUTE-FILE:line:col",
//	      "op": "read|write", "atomic": true,
//	      "func": "SSA name of the function",
//	      "goroutine": {"kind": "root|init|go", "entry": "SSA name",
//	                    "spawn": ["FILE:line:col of each go statement, root first"]},
//	      "roots": ["SSA names of the entry functions the access is reached from"],
//	      "path": [{"func": "SSA name", "pos": "FILE:line:col"}],  // entry first, the access last
//	      "locks": ["lock held at the access"]
//	    }, {...}]
//	  }],
//	  "errors": ["packages that failed to load"],
//	  "stats": {"pairs": {"original": n, "aliasing": n, "escaping": n,
//	                      "parallel": n, "unlocked": n, "ultimate": n},
//	            "seconds": {"load": s, "ssa": s, "facts": s, "pointsto-ci": s, "pointsto": s,
//	                        "goroutines": s, "accesses": s, "aliasing": s, "escaping": s,
//	                        "parallel": s, "unlocked": s, "report": s},
//	            "sizes": {"goroutines": n, "contexts": n}}
//	}
//
// Fields are only added, never renamed or removed. Races are sorted by the
// positions of their accesses. A race stands for all the goroutine pairs in
// which its accesses may race; the goroutines and paths shown are those of
// the first pair. A path is a shortest one in the context-sensitive call
// graph, without go edges, from the goroutine's entry to the access, found
// by breadth-first search over sorted edges so that the same program gives
// the same report.
package reports
