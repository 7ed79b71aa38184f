// Package races runs the race funnel of Naik's thesis (chapter 2,
// Algorithms 2.1-2.6, Table 2.4) over the results of pointsto, escape, mhp
// and condmustnot.
//
// It takes a [pointsto.Result] and gives a [Result]: the ultimate race
// pairs and the count of access pairs after each stage:
//
//   - original: two accesses to the same field, element, map, global or
//     kind of object, at least one a write, each reached by some goroutine;
//   - aliasing: on the same abstract location (races.dl gives accessLoc,
//     the locations each access touches in each goroutine); two accesses to
//     elements at distinct constant indices of an array that no slicing
//     reaches at an offset touch distinct memory; two atomic accesses never
//     race;
//   - escaping: on an object another goroutine can reach (package escape);
//   - parallel: not ordered by happens-before (package mhp);
//   - unlocked: not both under one lock (package condmustnot).
//
// Each stage can be turned off in [Options] for diagnosis. Races are
// reported when at least one access is in the packages the user named
// (Options.Std widens that); accesses inside sync, sync/atomic and the
// runtime are never reported: those are modeled by their documented
// semantics.
package races
