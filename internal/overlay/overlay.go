package overlay

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// An Insertion is text to insert into a file before the byte at Offset,
// in place of the Remove bytes from there.
type Insertion struct {
	Offset int
	Text   string
	Remove int
}

// Write writes, into dir, a copy of each file of edits with its
// insertions made and each file of added (by the path it takes in its
// package's directory), and writes the overlay file, which maps the
// original paths to them. Insertions at one offset go in the order given.
func Write(overlayFile, dir string, edits map[string][]Insertion, added map[string][]byte) error {
	replace := map[string]string{}
	for i, file := range slices.Sorted(maps.Keys(edits)) {
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		ins := slices.Clone(edits[file])
		slices.SortStableFunc(ins, func(a, b Insertion) int { return cmp.Compare(b.Offset, a.Offset) })
		// From the last offset back, so that earlier offsets stay valid.
		next := len(src) // the offset of the edit after this one
		for k := 0; k < len(ins); {
			j := k
			remove := 0
			var text strings.Builder
			for ; j < len(ins) && ins[j].Offset == ins[k].Offset; j++ {
				text.WriteString(ins[j].Text)
				remove += ins[j].Remove
			}
			off := ins[k].Offset
			if off < 0 || off+remove > next {
				return fmt.Errorf("%s: edit of bytes %d to %d is outside the file (%d bytes) or overlaps the next edit", file, off, off+remove, len(src))
			}
			src = slices.Replace(src, off, off+remove, []byte(text.String())...)
			next = off
			k = j
		}
		copyName := filepath.Join(dir, fmt.Sprintf("%d_%s", i, filepath.Base(file)))
		if err := os.WriteFile(copyName, src, 0o644); err != nil {
			return err
		}
		replace[file] = copyName
	}
	for _, file := range slices.Sorted(maps.Keys(added)) {
		copyName := filepath.Join(dir, fmt.Sprintf("added_%d_%s", len(replace), filepath.Base(file)))
		if err := os.WriteFile(copyName, added[file], 0o644); err != nil {
			return err
		}
		replace[file] = copyName
	}
	data, err := json.MarshalIndent(map[string]any{"Replace": replace}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(overlayFile, append(data, '\n'), 0o644)
}

// Unreplaceable returns whether a file is in GOROOT or the module cache,
// which go build -overlay cannot replace.
func Unreplaceable() (func(string) bool, error) {
	out, err := exec.Command("go", "env", "GOROOT", "GOMODCACHE").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT GOMODCACHE: %v", err)
	}
	var dirs []string
	for _, d := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if d != "" {
			dirs = append(dirs, filepath.Clean(d)+string(filepath.Separator))
		}
	}
	return func(file string) bool {
		return slices.ContainsFunc(dirs, func(d string) bool { return strings.HasPrefix(file, d) })
	}, nil
}
