package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
)

// maxWord is the longest run of non-space bytes an error prints in full: a
// name longer than that (a generated file name, a pattern pasted twice) is
// cut in the middle, keeping both ends, which tell names apart.
const maxWord = 200

var longWord = regexp.MustCompile(fmt.Sprintf(`\S{%d,}`, maxWord+1))

// shorten cuts each word of msg longer than maxWord to its first and last
// bytes (on rune boundaries), saying how long it was.
func shorten(msg string) string {
	return longWord.ReplaceAllStringFunc(msg, func(w string) string {
		head, tail := 120, len(w)-60
		for head > 0 && !runeStart(w[head]) {
			head--
		}
		for tail < len(w) && !runeStart(w[tail]) {
			tail++
		}
		return fmt.Sprintf("%s...(%d bytes)...%s", w[:head], len(w), w[tail:])
	})
}

func runeStart(b byte) bool { return b&0xC0 != 0x80 }

// printError prints a command's error on standard error, long names cut.
func printError(cmd string, err error) {
	fmt.Fprintln(os.Stderr, shorten(fmt.Sprintf("chordgo %s: %v", cmd, err)))
}

// failer returns a command's way to fail: print the error, exit with
// status 2.
func failer(cmd string) func(error) int {
	return func(err error) int {
		printError(cmd, err)
		return exitFailed
	}
}

// parseFlags parses a command's arguments; when it returns false, the
// command is done, with status code (0 for -h).
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitClean, false
		}
		return exitFailed, false
	}
	return 0, true
}

// shortWriter cuts long names in what is written through it (the flag
// package's errors, which quote the flag).
type shortWriter struct{ w io.Writer }

func (s shortWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, shorten(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
