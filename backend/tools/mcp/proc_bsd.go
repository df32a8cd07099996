//go:build unix && !linux

package mcp

import "syscall"

// setParentDeathSignal: macOS and the BSDs have no such signal; a server
// whose stdin closes with Airlock exits on its own, as MCP servers do.
func setParentDeathSignal(*syscall.SysProcAttr) {}

// treePIDs: without /proc, the process group is what Airlock reaches.
func treePIDs(int, string) []int { return nil }

// sweepOrphans: helpers outside the group can't be found here.
func sweepOrphans() {}
