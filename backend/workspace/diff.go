package workspace

import (
	"bytes"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"
)

const (
	BinarySniffBytes  = 8 << 10 // binary detection looks at this much of the start
	MaxDiffInputBytes = 4 << 20 // no diff is computed above this (old+new)
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
