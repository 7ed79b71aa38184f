package reports

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chordgo/chordgo/internal/gittest"
)

// TestParseDiff checks the lines read from git diff -U0 output.
func TestParseDiff(t *testing.T) {
	const header = "diff --git a/p/f.go b/p/f.go\nindex 1..2 100644\n--- a/p/f.go\n+++ b/p/f.go\n"
	f := filepath.Join("/top", "p", "f.go")
	for _, tc := range []struct {
		name, diff string
		want       ChangedLines
		err        string // regexp
	}{
		{"lines added", header + "@@ -3,0 +4,2 @@ func f() {\n+\tx = 1\n+\ty = 2\n", ChangedLines{f: {{4, 5}}}, ""},
		{"line changed", header + "@@ -7 +7 @@\n-\tx = 1\n+\tx = 2\n", ChangedLines{f: {{7, 7}}}, ""},
		{"lines deleted", header + "@@ -7,2 +6,0 @@\n-\tx = 1\n-\ty = 1\n", ChangedLines{}, ""},
		{"several hunks", header + "@@ -1 +1 @@\n-a\n+b\n@@ -9,0 +10,3 @@\n+c\n+d\n+e\n", ChangedLines{f: {{1, 1}, {10, 12}}}, ""},
		// Body lines that look like headers are body lines.
		{"body like a header", header + "@@ -2,2 +2,2 @@\n--- a/x\n-@@ -1 +1 @@\n++++ b/y\n+diff --git\n@@ -8 +8 @@\n-x\n+y\n",
			ChangedLines{f: {{2, 3}, {8, 8}}}, ""},
		{"no newline at end", header + "@@ -5 +5 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n", ChangedLines{f: {{5, 5}}}, ""},
		{"new file", "diff --git a/n.go b/n.go\nnew file mode 100644\n--- /dev/null\n+++ b/n.go\n@@ -0,0 +1,2 @@\n+a\n+b\n",
			ChangedLines{filepath.Join("/top", "n.go"): {{1, 2}}}, ""},
		{"deleted file", "diff --git a/d.go b/d.go\ndeleted file mode 100644\n--- a/d.go\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n", ChangedLines{}, ""},
		{"quoted name", "diff --git \"a/\\303\\251 t.go\" \"b/\\303\\251 t.go\"\n--- \"a/\\303\\251 t.go\"\n+++ \"b/\\303\\251 t.go\"\n@@ -1 +1 @@\n-a\n+b\n",
			ChangedLines{filepath.Join("/top", "é t.go"): {{1, 1}}}, ""},
		{"binary", "diff --git a/b.bin b/b.bin\nindex 1..2 100644\nBinary files a/b.bin and b/b.bin differ\n", ChangedLines{}, ""},
		{"bad hunk header", header + "@@ -1 +x @@\n", nil, `^git diff, line 5: malformed hunk header "@@ -1 \+x @@"$`},
		{"context line in -U0", header + "@@ -1 +1 @@\n a\n", nil, `^git diff, line 6: " a" in a hunk of -U0$`},
		{"no b/ prefix", "--- a/f.go\n+++ f.go\n", nil, `^git diff, line 2: new file "f.go" without the b/ prefix$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseDiff(strings.NewReader(tc.diff), "/top")
			if wantError(t, err, tc.err) && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestGitChanges runs GitChanges in a temporary repository: the lines of
// a module in a subdirectory that a commit and the working tree change,
// and the errors.
func TestGitChanges(t *testing.T) {
	top, notRepo := t.TempDir(), t.TempDir()
	dir := filepath.Join(top, "mod")
	git := gittest.Init(t, top)
	// Not even when the temporary directory is in a repository.
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(notRepo))
	write := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(top, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("mod/a.go", "1\n2\n3\n")
	write("other.go", "1\n")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	write("mod/a.go", "1\n2 changed\n3\n4 added\n")
	write("other.go", "1\n2\n")
	git("commit", "-q", "-a", "-m", "second")
	write("mod/a.go", "0 added\n1\n2 changed\n3\n4 added\n")
	write("mod/untracked.go", "1\n")

	for _, tc := range []struct {
		name, dir, rev string
		want           ChangedLines
		err            string // regexp
	}{
		{"working tree", dir, "HEAD", ChangedLines{filepath.Join(dir, "a.go"): {{1, 1}}}, ""},
		{"a commit and the working tree", dir, "HEAD~1", ChangedLines{
			filepath.Join(dir, "a.go"):     {{1, 1}, {3, 3}, {5, 5}},
			filepath.Join(top, "other.go"): {{2, 2}},
		}, ""},
		{"unknown revision", dir, "nosuchrev", nil, `^-new-from-rev: unknown revision "nosuchrev" in the git repository of \S+/mod$`},
		{"option as revision", dir, "--output=x", nil, `^-new-from-rev "--output=x": a revision does not start with '-'$`},
		{"not a repository", notRepo, "HEAD", nil, `^-new-from-rev: \S+: fatal: not a git repository`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := GitChanges(tc.dir, tc.rev)
			if wantError(t, err, tc.err) && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
