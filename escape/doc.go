// Package escape computes thread escape (Naik's thesis, section 2.4.2) over
// the k-object-sensitive points-to of package pointsto: the abstract
// objects that some goroutine other than their allocating one may reach;
// and instance escape, the same question asked of the instances of one
// abstract goroutine.
//
// [Escaping] takes a [pointsto.Result] and gives the escaping objects as a
// bitset over the result's contexts. The rules are in escape.dl: the roots
// of escape are globals and what go statements hand to new goroutines
// (arguments, receivers, closures); escape follows the heap (hpt), fields
// and elements (subObj), and captured values of closures (closureVal).
// The races stage drops access pairs on objects that do not escape: such
// an object is only touched by the goroutine instance that made it.
//
// [InstancePrivate] takes the points-to, package mhp's goroutines (what
// each runs, where each starts, the objects code we do not see may get)
// and candidate sides (g, o): a goroutine g that runs an access of a pair
// on location o. It gives the candidates where each instance of g only
// ever reaches the objects of o it allocated itself (instance.dl, with its
// soundness argument): a worker started by a go statement in a loop that
// builds its own map and hands it back to main makes the map escape, but
// no two workers touch one map; and main and a worker that each build
// their own objects of one site never touch one object. The races stage
// drops the goroutine pairs of two such goroutines (one twice included).
// Thread escape is per abstract object and cannot tell a go statement's
// instances, or the objects of a site that two goroutines allocate, apart;
// this follows how an instance may obtain a pointer (its start, globals,
// loads from locations shared or written by other goroutines, unless the
// writer is itself such a goroutine for the object it writes into)
// instead.
package escape
