//go:build unix

package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// treeVar marks every process a stdio server starts: children inherit the
// environment, even those that leave its process group (setsid) or are
// orphaned (a double fork), so the server's whole tree can be found and
// ended (on Linux, see treePIDs; elsewhere the process group is all).
const treeVar = "AIRLOCK_MCP_TREE"

// processGuard reaches a child and everything it started: the child leads
// its own process group, so signalling -pid reaches its helpers too (npx
// starts node, uvx starts python, ...); and on Linux the processes that
// left the group are found by their parent or by the marker.
type processGuard struct{ *tree }

type tree struct {
	pgid   int
	marker string // treeVar=<random>, as in the environment

	mu   sync.Mutex
	seen map[int]bool // descendants found while the server lived
}

func prepareCommand(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
	// <Airlock's pid>.<random>: unique to this server's run, and it names
	// the Airlock that started it (see sweepOrphans).
	var token [12]byte
	_, _ = rand.Read(token[:])
	cmd.Env = append(cmd.Env, treeVar+"="+strconv.Itoa(os.Getpid())+"."+hex.EncodeToString(token[:]))
}

func guardProcess(cmd *exec.Cmd) processGuard {
	t := &tree{pgid: cmd.Process.Pid, seen: map[int]bool{}}
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, treeVar+"=") {
			t.marker = kv
		}
	}
	return processGuard{t}
}

// note remembers the server's descendants now, while they can still be
// found by their parent: once the server is gone they are orphans.
func (g processGuard) note() {
	pids := treePIDs(g.pgid, g.marker)
	g.mu.Lock()
	for _, p := range pids {
		g.seen[p] = true
	}
	g.mu.Unlock()
}

func (g processGuard) terminate() { g.signal(syscall.SIGTERM) }

func (g processGuard) kill() { g.signal(syscall.SIGKILL) }

// signal sends sig to the process group, then to every process of the tree
// (those noted before and those found now), again while new ones appear.
func (g processGuard) signal(sig syscall.Signal) {
	_ = syscall.Kill(-g.pgid, sig)
	g.mu.Lock()
	done := map[int]bool{}
	targets := make([]int, 0, len(g.seen))
	for p := range g.seen {
		targets = append(targets, p)
	}
	g.mu.Unlock()
	for round := 0; round < 4; round++ {
		targets = append(targets, treePIDs(g.pgid, g.marker)...)
		fresh := 0
		for _, p := range targets {
			if !done[p] {
				done[p] = true
				fresh++
				_ = syscall.Kill(p, sig)
			}
		}
		if fresh == 0 {
			return
		}
		targets = targets[:0]
	}
}
