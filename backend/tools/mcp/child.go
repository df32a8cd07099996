package mcp

import (
	"airlock/backend/uitext"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainDelay is how long stdout may stay open after the child exited (a
// grandchild that inherited it) before Airlock closes its end, so a dead
// server's calls fail at once instead of hanging.
const drainDelay = 500 * time.Millisecond

// child is a stdio server's process. Airlock owns the pipes and the Wait
// (rather than the SDK's CommandTransport) to know the moment the process
// exits, to kill its whole process group (a job object on Windows), and to
// keep the tail of its stderr.
type child struct {
	cmd    *exec.Cmd
	stdin  *os.File // Airlock's end; closing it asks the server to exit
	stdout *os.File // Airlock's end
	stderr *tailBuffer
	guard  processGuard

	exited     chan struct{} // closed once the process is reaped and its stderr read
	waitErr    error         // set before exited closes
	stderrDone chan struct{} // closed when stderr reached its end
}

// startChild starts the server's command with the config's arguments,
// environment (added to Airlock's) and working folder.
func startChild(cfg ServerConfig) (*child, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Dir
	cmd.Env = os.Environ()
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v) // later entries win
	}
	prepareCommand(cmd)

	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	// Files, not writers: the child gets the pipes themselves, so no copying
	// goroutine of exec's holds Wait up while a grandchild keeps them open.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		cause := unwrapExec(err)
		return nil, &uitext.Error{Text: txtCannotStart.With("command", strconv.Quote(cfg.Command), "reason", startReason(cause)), Err: cause}
	}
	closeAll(inR, outW, errW) // the child's ends
	c := &child{cmd: cmd, stdin: inW, stdout: outR, stderr: newTailBuffer(stderrTailSize),
		exited: make(chan struct{}), stderrDone: make(chan struct{})}
	c.guard = guardProcess(cmd)
	go func() {
		_, _ = io.Copy(c.stderr, errR)
		errR.Close()
		close(c.stderrDone)
	}()
	go c.wait()
	return c, nil
}

func (c *child) wait() {
	c.waitErr = c.cmd.Wait()
	// A dead server's helpers are of no use: stop them. Its last words on
	// stderr explain its death: read them before saying it exited. And give
	// its last answer a moment to be read before stdout is closed under the
	// reader.
	c.guard.kill()
	select {
	case <-c.stderrDone:
	case <-time.After(drainDelay):
	}
	close(c.exited)
	time.AfterFunc(drainDelay, func() { c.stdout.Close() })
}

// transport speaks MCP over the child's stdin and stdout.
func (c *child) transport() sdk.Transport {
	return &sdk.IOTransport{Reader: c.stdout, Writer: c.stdin}
}

// stop ends the child as the MCP spec asks: close its input, wait, then
// SIGTERM (the group), wait, then kill (the group). It returns once the
// process is reaped.
func (c *child) stop(grace time.Duration) {
	c.guard.note() // its helpers, while they are still known as its children
	c.stdin.Close()
	if c.waitFor(grace) {
		return
	}
	c.guard.terminate()
	if c.waitFor(grace) {
		return
	}
	c.guard.kill()
	<-c.exited
}

func (c *child) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.exited:
		return true
	case <-t.C:
		return false
	}
}

// killNow is for a start that was abandoned (timeout, stop): no grace.
func (c *child) killNow() {
	c.stdin.Close()
	c.guard.kill()
	<-c.exited
}

// exitText says how the process ended, once it has: "exit status 3",
// "signal: killed".
func (c *child) exitText() uitext.Text {
	select {
	case <-c.exited:
	default:
		return txtStillRunning.With()
	}
	var ee *exec.ExitError
	if errors.As(c.waitErr, &ee) {
		return exitStatus(ee.ProcessState.String())
	}
	if c.waitErr != nil {
		return uitext.Plain(c.waitErr.Error())
	}
	return exitStatus("exit status 0")
}

var (
	txtExitStatus = uitext.Define("mcp_exit_status", "exit status {{status}}")
	txtKilledBy   = uitext.Define("mcp_killed_by", "signal: {{signal}}")
)

// exitStatus codes Go's "exit status 3" and "signal: killed".
func exitStatus(s string) uitext.Text {
	if n, ok := strings.CutPrefix(s, "exit status "); ok {
		return txtExitStatus.With("status", n)
	}
	if sig, ok := strings.CutPrefix(s, "signal: "); ok {
		return txtKilledBy.With("signal", sig)
	}
	return uitext.Plain(s)
}

// waitExited waits a little for the process to be reaped, bounded by ctx.
func (c *child) waitExited(ctx context.Context, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	select {
	case <-c.exited:
		return true
	case <-ctx.Done():
		return false
	}
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		f.Close()
	}
}

// unwrapExec turns `exec: "npx": executable file not found in $PATH` into
// its useful part.
var (
	txtCannotStart      = uitext.Define("mcp_cannot_start", "cannot start {{command}}: {{reason}}")
	txtNoSuchFile       = uitext.Define("os_no_such_file", "no such file or directory")
	txtNotInPath        = uitext.Define("os_not_in_path", "executable file not found in $PATH")
	txtPermissionDenied = uitext.Define("os_permission_denied", "permission denied")
)

// startReason is why a command did not start, coded when it is a common
// reason (the English is Go's own words, as before).
func startReason(err error) uitext.Text {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Op == "fork/exec" {
		err = pe.Err // the command is named already
	}
	switch {
	case errors.Is(err, exec.ErrNotFound) && err.Error() == txtNotInPath.With().English:
		return txtNotInPath.With()
	case errors.Is(err, fs.ErrNotExist) && err.Error() == txtNoSuchFile.With().English:
		return txtNoSuchFile.With()
	case errors.Is(err, fs.ErrPermission) && err.Error() == txtPermissionDenied.With().English:
		return txtPermissionDenied.With()
	}
	return uitext.Plain(err.Error())
}

func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}
