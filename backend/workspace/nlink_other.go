//go:build !unix

package workspace

import "io/fs"

// linkCount is 1 where the file's links are not reported (Windows: a
// write there changes a hard-linked file in place, as the system does).
func linkCount(fs.FileInfo) uint64 { return 1 }
