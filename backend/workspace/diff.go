package workspace

import (
	"bytes"
	"strings"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Caps. What a tool returns is what a model reads: every cap comes with a
// note in the output saying what was left out and how to get it.
const (
	MaxReadBytes       = 256 << 10 // read_file: bytes returned per call
	MaxReadLines       = 2000      // read_file: lines returned per call
	MaxWriteBytes      = 5 << 20   // write_file / edit_file: size of the new content
	MaxSearchMatches   = 200       // search_files: matching lines returned
	MaxSearchLineRunes = 300       // search_files: a matching line is cut after this
	MaxSearchFileBytes = 16 << 20  // search_files: larger files are skipped (and counted)
	MaxListEntries     = 1000      // list_directory: entries returned
	MaxFindResults     = 1000      // find_files: paths returned
	MaxListDepth       = 20        // list_directory: deepest recursion
	BinarySniffBytes   = 8 << 10   // binary detection looks at this much of the start
	MaxDiffInputBytes  = 4 << 20   // no diff is computed above this (old+new)
	MaxPreviewBytes    = 256 << 10 // an approval card's diff is cut after this
)

// IsBinary reports whether data looks binary: a NUL byte in its first
// BinarySniffBytes, or more than 10% of that sample not valid UTF-8.
func IsBinary(data []byte) bool {
	if len(data) > BinarySniffBytes {
		data = data[:BinarySniffBytes]
		// Drop a rune the sample's end cut in half.
		for i := 1; i <= utf8.UTFMax && i <= len(data); i++ {
			if utf8.RuneStart(data[len(data)-i]) {
				if !utf8.FullRune(data[len(data)-i:]) {
					data = data[:len(data)-i]
				}
				break
			}
		}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	if utf8.Valid(data) {
		return false
	}
	n, bad := len(data), 0
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size == 1 {
			bad++
		}
		data = data[size:]
	}
	return bad*10 > n
}

// UnifiedDiff returns the unified diff of two texts ("" when equal), with
// 3 lines of context, as `diff -u` and git show it.
func UnifiedDiff(fromLabel, toLabel, old, new string) string {
	if old == new {
		return ""
	}
	return udiff.Unified(fromLabel, toLabel, old, new)
}

// diffStat counts the added and removed lines of a unified diff.
func diffStat(diff string) (added, removed int) {
	inHunk := false
	for line := range strings.SplitSeq(diff, "\n") {
		switch {
		case strings.HasPrefix(line, "@@"):
			inHunk = true
		case !inHunk:
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			removed++
		}
	}
	return
}

// capDiff cuts a preview diff at MaxPreviewBytes, on a line boundary.
func capDiff(d string) string {
	if len(d) <= MaxPreviewBytes {
		return d
	}
	cut := strings.LastIndexByte(d[:MaxPreviewBytes], '\n')
	if cut < 0 {
		cut = MaxPreviewBytes
	}
	return d[:cut+1] + "[diff truncated: " + humanSize(int64(len(d))) + " in all]\n"
}

// countLines counts lines the way an editor numbers them.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
