// Package html writes a chordgo report as HTML pages for people, the way
// Chord presented its races (Naik's thesis, section 2.8 and Figure 2.2):
// races grouped by location (a field, element, map, global or variable of
// an abstract object) and by abstract object, each location with its
// access pairs and their call paths.
//
// # What it takes and gives
//
// [Write] takes the [reports.Report] that chordgo check also writes as text
// or JSON, described one race at a time by [reports.Report.Each], and the
// source files the races mention, read from disk. It gives a directory:
//
//   - index.html: the locations (by-location view) and the objects that
//     hold them (by-object view), with their counts of access pairs, writes
//     and atomic accesses and their packages (those of the accesses'
//     functions); the tables sort by any column and filter by package and
//     text (app.js, which only reorders and hides rows);
//   - loc/ID.html, one per location (ID its stable id): every access pair
//     (section id "race-ID"), both accesses with a source excerpt whose
//     line is highlighted, read/write and atomic, the goroutine with its
//     spawn chain from the roots, the locks held, and the call path from
//     the goroutine's entry, each frame with the locks held at its call.
//     A location with many pairs continues on loc/ID-2.html and so on
//     (at most 100 pairs or about 256 KB a page);
//   - src/NAME.html, one per source file mentioned, each line anchored
//     (#L12), the racing lines marked and linked to their races. A file
//     whose page would pass 512 KB shows only the lines around those
//     linked to;
//   - style.css and app.js, embedded in the binary with the templates.
//
// Every link is relative and every page names only style.css and app.js,
// under a Content-Security-Policy that allows nothing else: the report
// opens offline from the file system. Every string from the analyzed
// program (source lines, names, types with their struct tags, positions)
// goes through html/template, so markup in it shows as text.
//
// Output is deterministic: pages are written in the report's order and
// source pages by name.
package html
