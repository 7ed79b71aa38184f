// Package gittest makes temporary git repositories for the tests of
// chordgo check -new-from-rev (reports.GitChanges and cmd/chordgo). It
// needs git on PATH, as -new-from-rev does.
package gittest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Init makes dir a git repository, with no configuration from outside the
// test (user files, system files), and returns a function that runs git
// there and fails the test if git fails.
func Init(t *testing.T, dir string) func(args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("-new-from-rev needs git, and so does this test: %v", err)
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "test", "GIT_AUTHOR_EMAIL": "test@example.com",
		"GIT_COMMITTER_NAME": "test", "GIT_COMMITTER_EMAIL": "test@example.com",
	} {
		t.Setenv(k, v)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	return git
}
