package mcp

import (
	"os/exec"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// processGuard holds a job object the child is assigned to. The job kills
// its processes when its last handle closes, so the child and whatever it
// started die with Airlock, even if Airlock crashes.
type processGuard struct{ *job }

type job struct {
	once   sync.Once
	handle windows.Handle // 0 when the job could not be set up
	cmd    *exec.Cmd
}

// prepareCommand: Airlock is a GUI program; without CREATE_NO_WINDOW each
// console server (node, python) would open a console window.
func prepareCommand(cmd *exec.Cmd) {
	cmd.SysProcAttr = &windows.SysProcAttr{CreationFlags: windows.CREATE_NO_WINDOW}
}

func guardProcess(cmd *exec.Cmd) processGuard {
	j := &job{cmd: cmd}
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return processGuard{j}
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(h)
		return processGuard{j}
	}
	proc, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		windows.CloseHandle(h)
		return processGuard{j}
	}
	defer windows.CloseHandle(proc)
	if err := windows.AssignProcessToJobObject(h, proc); err != nil {
		windows.CloseHandle(h)
		return processGuard{j}
	}
	j.handle = h
	return processGuard{j}
}

// sweepOrphans: the job object ended the whole tree with Airlock.
func sweepOrphans() {}

// note: the job object holds the whole tree already.
func (g processGuard) note() {}

// terminate: Windows has no SIGTERM for a windowless child; the grace
// after closing stdin is all a server gets.
func (g processGuard) terminate() {}

func (g processGuard) kill() {
	if g.handle == 0 {
		_ = g.cmd.Process.Kill()
		return
	}
	g.once.Do(func() {
		_ = windows.TerminateJobObject(g.handle, 1)
		windows.CloseHandle(g.handle)
	})
}
