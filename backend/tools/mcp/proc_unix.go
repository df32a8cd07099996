//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// processGuard reaches a child and everything it started: the child leads
// its own process group, so signalling -pid reaches its helpers too (npx
// starts node, uvx starts python, ...).
type processGuard struct{ pgid int }

func prepareCommand(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(cmd.SysProcAttr)
}

func guardProcess(cmd *exec.Cmd) processGuard { return processGuard{pgid: cmd.Process.Pid} }

func (g processGuard) terminate() { _ = syscall.Kill(-g.pgid, syscall.SIGTERM) }

func (g processGuard) kill() { _ = syscall.Kill(-g.pgid, syscall.SIGKILL) }
