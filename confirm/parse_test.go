package confirm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The files in testdata are the race detector's output, captured from
// go run -race on programs of testdata/races and go test -race -v on
// testdata/confirm/racy.
func TestParse(t *testing.T) {
	type race struct {
		tops [2]string // file:line relative to the captured programs' directories; "" for none
		ops  [2]string
		test string
	}
	for _, tc := range []struct {
		file string
		want []race
	}{
		{"closure_write_racy.txt", []race{{[2]string{"closure_write_racy/main.go:11", "closure_write_racy/main.go:14"}, [2]string{"write", "write"}, ""}}},
		// Map operations are checked in the runtime: the program's frame is
		// the caller.
		{"map_lookup_assign_racy.txt", []race{
			{[2]string{"map_lookup_assign_racy/main.go:21", "map_lookup_assign_racy/main.go:18"}, [2]string{"read", "write"}, ""},
			{[2]string{"map_lookup_assign_racy/main.go:21", "map_lookup_assign_racy/main.go:18"}, [2]string{"read", "write"}, ""},
		}},
		{"append_shared_racy.txt", []race{
			{[2]string{"append_shared_racy/main.go:16", "append_shared_racy/main.go:18"}, [2]string{"read", "write"}, ""},
			{[2]string{"append_shared_racy/main.go:16", "append_shared_racy/main.go:18"}, [2]string{"read", "write"}, ""},
		}},
		// The race detector loses the caller of sync/atomic functions.
		{"atomic_vs_plain_racy.txt", []race{{[2]string{"", "atomic_vs_plain_racy/main.go:19"}, [2]string{"write", "read"}, ""}}},
		{"racy_test_v.txt", []race{
			{[2]string{"racy/racy.go:12", "racy/racy.go:15"}, [2]string{"write", "write"}, "TestHit"},
			{[2]string{"racy/racy.go:26", "racy/racy.go:29"}, [2]string{"write", "write"}, "TestRename"},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(string(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d races, want %d", len(got), len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				for k := range 2 {
					top, ok := g.Accesses[k].Top()
					if ok != (w.tops[k] != "") || ok && !strings.HasSuffix(top.Position(), "/"+w.tops[k]) {
						t.Errorf("race %d access %d: top frame %q (found %v), want %q", i, k, top.Position(), ok, w.tops[k])
					}
					if g.Accesses[k].Op != w.ops[k] {
						t.Errorf("race %d access %d: op %s, want %s", i, k, g.Accesses[k].Op, w.ops[k])
					}
				}
				if g.Test != w.test {
					t.Errorf("race %d: test %q, want %q", i, g.Test, w.test)
				}
				if !strings.HasPrefix(g.Text, warning) {
					t.Errorf("race %d: text does not begin with the warning: %q", i, g.Text)
				}
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, output, err string
	}{
		{"one access", "x\n" + warning + "\nWrite at 0x01 by goroutine 7:\n  main.f()\n      /a/main.go:3 +0x1\n" + separator + "\n", "race report at line 2: want two accesses, found 1"},
		{"frame without position", warning + "\nWrite at 0x01 by goroutine 7:\n  main.f()\n\nRead at 0x01 by main goroutine:\n  main.main()\n      /a/main.go:9 +0x1\n" + separator + "\n", "frame main.f: want a file:line line after it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.output)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got error %v, want %q", err, tc.err)
			}
		})
	}
}

func TestFuncPackage(t *testing.T) {
	for name, want := range map[string]string{
		"main.main":                      "main",
		"runtime.mapaccess1_faststr":     "runtime",
		"internal/runtime/maps.(*Map).f": "internal/runtime/maps",
		"sync/atomic.AddInt64":           "sync/atomic",
		"github.com/a/b.(*T).m.func1":    "github.com/a/b",
	} {
		if got := funcPackage(name); got != want {
			t.Errorf("funcPackage(%q) = %q, want %q", name, got, want)
		}
	}
}
