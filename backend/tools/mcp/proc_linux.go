package mcp

import "syscall"

// setParentDeathSignal has Linux kill the child if Airlock dies without
// stopping it (a crash, SIGKILL), so nothing outlives Airlock. (The signal
// follows the OS thread that started the child; Go keeps its threads
// unless a goroutine exits while locked to one, which Airlock's don't.)
func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
