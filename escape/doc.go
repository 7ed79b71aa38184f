// Package escape computes thread escape (Naik's thesis, section 2.4.2) over
// the k-object-sensitive points-to of package pointsto: the abstract
// objects that some goroutine other than their allocating one may reach.
//
// It takes a [pointsto.Result] and gives the escaping objects as a bitset
// over the result's contexts. The rules are in escape.dl: the roots of
// escape are globals and what go statements hand to new goroutines
// (arguments, receivers, closures); escape follows the heap (hpt), fields
// and elements (subObj), and captured values of closures (closureVal).
//
// The races stage drops access pairs on objects that do not escape: such
// an object is only touched by the goroutine instance that made it.
package escape
