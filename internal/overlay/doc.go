// Package overlay writes go build -overlay maps: copies of source files
// with text inserted at byte offsets (in place of bytes removed there),
// and files added to packages. Line numbers are the caller's concern:
// confirm inserts its hooks on the access's line; racefree inserts
// //go:norace with a //line directive that restores the next line's
// position, and accessor calls within lines.
//
// It takes the edits and gives the overlay file (Write); Unreplaceable
// says which files go build -overlay cannot replace. It is used by
// packages confirm and racefree, and by internal/countchecks.
package overlay
