package confirm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookSource is a file whose accesses the placement cases name by line
// and by the text the access starts with on that line.
const hookSource = `package p

var x, y int

var z = x

func f() int { return 1 }

func g(n int, ch chan int) {
	x = 1
	y = f() + x
	y = f() +
		x
	for i := 0; i < x; i++ {
		y = i
	}
	switch n {
	case 1: x = 2
	}
	go func() { x = 3 }()
	if x > 0 {
	}
	x = y
}

type node struct {
	next *node
	n    int
}

func h(p *node, q node) {
	p.next.n = q.n
	p.n = f()
	if p.next.n > 0 {
	}
	(*p).n++
	if r := p; r.n > 0 {
	}
}

func (p *node) get() int { return p.n }

func k(p *node) {
	m := p.get
	_ = m
}
`

func TestPlaceHooks(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	if err := os.WriteFile(file, []byte(hookSource), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(hookSource, "\n")
	// at finds the n-th occurrence of text on a line (1-based).
	at := func(line int, text string, n int) Position {
		col := 0
		for range n {
			i := strings.Index(lines[line-1][col:], text)
			if i < 0 {
				t.Fatalf("line %d: no %q", line, text)
			}
			col += i + 1
		}
		return Position{File: file, Line: line, Column: col}
	}
	for _, tc := range []struct {
		name     string
		accesses [2]Position
		field    string         // the raced field's name, "" for a variable
		lines    map[int]string // the hooked lines, as the copy has them
		err      string
	}{
		{name: "statements", accesses: [2]Position{at(10, "x", 1), at(23, "x", 1)},
			lines: map[int]string{10: "\tchordgoHook(1, nil, nil, true); x = 1; chordgoDone(1)", 23: "\tchordgoHook(2, nil, nil, true); x = y; chordgoDone(2)"}},
		// The hook goes before the statement: f() runs after it.
		{name: "operand after a call", accesses: [2]Position{at(11, "x", 1), at(10, "x", 1)},
			lines: map[int]string{11: "\tchordgoHook(1, nil, nil, true); y = f() + x; chordgoDone(1)", 10: "\tchordgoHook(2, nil, nil, true); x = 1; chordgoDone(2)"}},
		{name: "same statement", accesses: [2]Position{at(23, "x", 1), at(23, "y", 1)},
			lines: map[int]string{23: "\tchordgoHook(3, nil, nil, true); x = y; chordgoDone(3)"}},
		{name: "case body", accesses: [2]Position{at(18, "x", 1), at(10, "x", 1)},
			lines: map[int]string{18: "\tcase 1: chordgoHook(1, nil, nil, true); x = 2; chordgoDone(1)", 10: "\tchordgoHook(2, nil, nil, true); x = 1; chordgoDone(2)"}},
		{name: "closure", accesses: [2]Position{at(20, "x", 1), at(10, "x", 1)},
			lines: map[int]string{20: "\tgo func() { chordgoHook(1, nil, nil, true); x = 3; chordgoDone(1) }()", 10: "\tchordgoHook(2, nil, nil, true); x = 1; chordgoDone(2)"}},
		{name: "condition", accesses: [2]Position{at(21, "x", 1), at(10, "x", 1)},
			lines: map[int]string{21: "\tchordgoHook(1, nil, nil, false); if x > 0 {", 10: "\tchordgoHook(2, nil, nil, true); x = 1; chordgoDone(2)"}},
		{name: "loop body", accesses: [2]Position{at(15, "y", 1), at(10, "x", 1)},
			lines: map[int]string{15: "\t\tchordgoHook(1, nil, nil, true); y = i; chordgoDone(1)", 10: "\tchordgoHook(2, nil, nil, true); x = 1; chordgoDone(2)"}},
		// A field's hook passes its address when finding it runs no code.
		{name: "field addresses", field: "n", accesses: [2]Position{at(32, "n", 2), at(32, "n", 3)},
			lines: map[int]string{32: "\tchordgoHook(3, &p.next.n, &q.n, true); p.next.n = q.n; chordgoDone(3)"}},
		{name: "field after a call", field: "n", accesses: [2]Position{at(33, "n", 1), at(32, "n", 2)},
			lines: map[int]string{33: "\tchordgoHook(1, nil, nil, true); p.n = f(); chordgoDone(1)", 32: "\tchordgoHook(2, nil, &p.next.n, true); p.next.n = q.n; chordgoDone(2)"}},
		{name: "field in a condition", field: "n", accesses: [2]Position{at(34, "n", 2), at(36, "n", 1)},
			lines: map[int]string{34: "\tchordgoHook(1, &p.next.n, nil, false); if p.next.n > 0 {", 36: "\tchordgoHook(2, nil, &(*p).n, true); (*p).n++; chordgoDone(2)"}},
		// r is declared by the statement: there is none before it.
		{name: "field of a variable the statement declares", field: "n", accesses: [2]Position{at(37, "n", 1), at(36, "n", 1)},
			lines: map[int]string{37: "\tchordgoHook(1, nil, nil, false); if r := p; r.n > 0 {", 36: "\tchordgoHook(2, nil, &(*p).n, true); (*p).n++; chordgoDone(2)"}},
		// p.get is a method value, not the raced field.
		{name: "method value", field: "n", accesses: [2]Position{at(44, "get", 1), at(36, "n", 1)},
			lines: map[int]string{44: "\tchordgoHook(1, nil, nil, true); m := p.get; chordgoDone(1)", 36: "\tchordgoHook(2, nil, &(*p).n, true); (*p).n++; chordgoDone(2)"}},
		{name: "continued line", accesses: [2]Position{at(13, "x", 1), at(10, "x", 1)}, err: "inside a statement that starts on line 12"},
		{name: "loop condition", accesses: [2]Position{at(14, "x", 1), at(10, "x", 1)}, err: "header of a loop"},
		{name: "package variable", accesses: [2]Position{at(5, "x", 1), at(10, "x", 1)}, err: "not inside a statement of a function body"},
		{name: "past the end", accesses: [2]Position{{File: file, Line: 99, Column: 1}, at(10, "x", 1)}, err: "no such position"},
		{name: "not replaceable", accesses: [2]Position{at(10, "x", 1), at(23, "x", 1)}, err: "cannot replace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forbidden := func(string) bool { return tc.name == "not replaceable" }
			sites, pkg, err := placeHooks(tc.accesses, tc.field, forbidden)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			overlay, err := writeOverlay(out, sites, pkg, [2]string{"a", "b"}, 0)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(out, "0_p.go"))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(string(data), "\n")
			if len(got) != len(lines) {
				t.Fatalf("the copy has %d lines, the file %d", len(got), len(lines))
			}
			for i := range lines {
				want, hooked := tc.lines[i+1]
				if !hooked {
					want = lines[i]
				}
				if got[i] != want {
					t.Errorf("line %d: got %q, want %q", i+1, got[i], want)
				}
			}
			if data, err := os.ReadFile(overlay); err != nil || !strings.Contains(string(data), filepath.Join(dir, "zz_chordgo_hook.go")) {
				t.Errorf("overlay %s does not add the hook file to %s: %s", overlay, dir, data)
			}
		})
	}
}
