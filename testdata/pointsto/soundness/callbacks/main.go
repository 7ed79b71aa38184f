// Callbacks through the standard library (sort.Slice's less, sort.Sort's
// interface methods, strings.Map, strings.FieldsFunc, slices.SortFunc) and
// recursion: direct, mutual, through a closure variable and through an
// interface (a tree of nodes).
package main

import (
	"slices"
	"sort"
	"strings"

	"github.com/chordgo/chordgo/testdata/pointsto/soundness/edges"
)

type byLen []string

func (b byLen) Len() int           { trace(); return len(b) }
func (b byLen) Less(i, j int) bool { trace(); return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { trace(); b[i], b[j] = b[j], b[i] }

type Node interface{ Sum() int }
type Leaf int
type Tree struct{ l, r Node }

func (l Leaf) Sum() int  { trace(); return int(l) }
func (t *Tree) Sum() int { trace(); return t.l.Sum() + t.r.Sum() }

func isSep(r rune) bool { trace(); return r == ',' }

func fact(n int) int {
	trace()
	if n <= 1 {
		return 1
	}
	return n * fact(n-1)
}

func even(n int) bool { trace(); return n == 0 || odd(n-1) }
func odd(n int) bool  { trace(); return n != 0 && even(n-1) }

func main() {
	trace()
	defer dump()
	words := strings.FieldsFunc("ccc,a,bb", isSep)
	sort.Slice(words, func(i, j int) bool { trace(); return words[i] > words[j] })
	sort.Sort(byLen(words))
	up := strings.Map(func(r rune) rune { trace(); return r - 32 }, "abc")
	slices.SortFunc(words, func(a, b string) int { trace(); return strings.Compare(b, a) })
	var fib func(int) int
	fib = func(n int) int {
		trace()
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	tree := &Tree{&Tree{Leaf(1), Leaf(2)}, Leaf(3)}
	_, _ = up, fact(4)+fib(5)+tree.Sum()
	_, _ = even(4), odd(3)
	dump()
}

// The call-edge recorder is shared (package edges); trace and dump keep
// the names pointsto/soundness_test.go looks for.
var trace, dump = edges.Trace, edges.Dump
