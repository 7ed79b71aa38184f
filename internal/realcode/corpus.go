package realcode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A Module is one entry of the corpus.
type Module struct {
	Path    string
	Version string // "checkout": this repository, copied from its working tree
	// Init is set for a module without go.mod (a +incompatible version):
	// the copy gets one from "go mod init Path".
	Init bool
	// ModFile is the go.mod its tests are built with, when not go.mod
	// (nats.go keeps its tests' dependencies in go_test.mod, TESTING.md):
	// it and its go.sum replace go.mod and go.sum in the copy. GOFLAGS
	// -modfile would not do: it breaks every go command run outside the
	// module, such as those of chordgo's loader.
	ModFile string
}

// Checkout is the Version of the repository's own entry.
const Checkout = "checkout"

func (m Module) String() string { return m.Path + "@" + m.Version }

// Corpus is the pinned list, in the order the harness runs it: small
// modules first, so that their results come before the long runs.
var Corpus = []Module{
	{Path: "github.com/patrickmn/go-cache", Version: "v2.1.0+incompatible", Init: true},
	{Path: "github.com/hashicorp/golang-lru/v2", Version: "v2.0.7"},
	{Path: "golang.org/x/sync", Version: "v0.24.0"},
	{Path: "go.etcd.io/bbolt", Version: "v1.5.0"},
	{Path: "github.com/nats-io/nats.go", Version: "v1.55.0", ModFile: "go_test.mod"},
	{Path: "github.com/prometheus/client_golang", Version: "v1.25.0"},
	{Path: "github.com/chordgo/chordgo", Version: Checkout},
}

// Env is the environment of every go command and chordgo run on the
// corpus: modules and their dependencies go to modcache (writable, so the
// temporary directory can be removed), no workspace, no toolchain switch.
func Env(modcache string) []string {
	return append(os.Environ(),
		"GOMODCACHE="+modcache,
		"GOFLAGS=-modcacherw -buildvcs=false",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)
}

// Fetch puts a writable copy of m under dir and returns the module's root
// in it: downloaded with "go mod download" into modcache, or, for the
// Checkout version, copied from repoRoot. The copy's dependencies are then
// downloaded ("go list -deps -test ./..."), so that a timed run does not
// include downloads.
func Fetch(ctx context.Context, m Module, repoRoot, modcache, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src := repoRoot
	if m.Version != Checkout {
		out, err := goCmd(ctx, modcache, dir, "mod", "download", "-json", m.String())
		if err != nil {
			return "", err
		}
		var dl struct{ Dir, Error string }
		if err := json.Unmarshal(out, &dl); err != nil {
			return "", fmt.Errorf("go mod download %s: %v", m, err)
		}
		if dl.Error != "" {
			return "", fmt.Errorf("go mod download %s: %s", m, dl.Error)
		}
		src = dl.Dir
	}
	root := filepath.Join(dir, filepath.Base(src))
	if err := copyTree(src, root); err != nil {
		return "", err
	}
	if m.ModFile != "" {
		sum := strings.TrimSuffix(m.ModFile, ".mod") + ".sum"
		for from, to := range map[string]string{m.ModFile: "go.mod", sum: "go.sum"} {
			if err := os.Rename(filepath.Join(root, from), filepath.Join(root, to)); err != nil {
				return "", fmt.Errorf("%s: %v", m, err)
			}
		}
	}
	if m.Init {
		if _, err := goCmd(ctx, modcache, root, "mod", "init", m.Path); err != nil {
			return "", err
		}
	}
	if _, err := goCmd(ctx, modcache, root, "list", "-e", "-deps", "-test", "./..."); err != nil {
		return "", err
	}
	return root, nil
}

func goCmd(ctx context.Context, modcache, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = Env(modcache)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %v in %s: %v\n%s", args, dir, err, stderr.Bytes())
	}
	return out, nil
}

// copyTree copies the regular files under src to dst, writable, leaving
// out version-control directories.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil // symlinks and devices are not part of a module zip
		}
		return copyFile(path, target)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
