//go:build unix

package mcp

import (
	"airlock/backend/uitext"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var stdioServerBin string

func TestMain(m *testing.M) {
	code := m.Run()
	if stdioServerBin != "" {
		os.RemoveAll(filepath.Dir(stdioServerBin))
	}
	os.Exit(code)
}

// stdioServer builds testdata/stdioserver once per test run.
func stdioServer(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test server")
	}
	if stdioServerBin == "" {
		dir, err := os.MkdirTemp("", "airlock-mcp-test")
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "stdioserver")
		out, err := exec.Command("go", "build", "-o", bin, "./testdata/stdioserver").CombinedOutput()
		if err != nil {
			t.Fatalf("building the test server: %v\n%s", err, out)
		}
		stdioServerBin = bin
	}
	return stdioServerBin
}

func stdioManager(t *testing.T, cfg ServerConfig, opts Options) *Manager {
	t.Helper()
	cfg.Enabled = true
	if opts.StopGrace == 0 {
		opts.StopGrace = 300 * time.Millisecond
	}
	m := NewManager(opts)
	t.Cleanup(func() { m.Close() })
	if err := m.Configure([]ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	return m
}

// alive says a process exists and is not a zombie waiting to be reaped
// (in a container, PID 1 may never reap the orphans it inherits).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// "pid (comm) S ..." — the state follows the last ')'.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

func readPID(t *testing.T, file string) int {
	t.Helper()
	var pid int
	waitUntil(t, func() bool {
		data, err := os.ReadFile(file)
		pid, _ = strconv.Atoi(string(data))
		return err == nil && pid > 0
	}, "the server's pid file")
	return pid
}

func TestStdioCommandNotFound(t *testing.T) {
	m := stdioManager(t, ServerConfig{Name: "ghost", Command: "airlock-no-such-command"}, Options{})
	st, _ := m.ServerStatus("ghost")
	if st.State != StateFailed || st.Reason != `cannot start "airlock-no-such-command": executable file not found in $PATH` {
		t.Errorf("status = %+v", st)
	}
	err := m.Restart(context.Background(), "ghost")
	if err == nil || !strings.Contains(err.Error(), `the MCP server "ghost" did not start: cannot start`) {
		t.Errorf("Restart = %v", err)
	}
}

func TestStdioNeverAnswersInitialize(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	server := stdioServer(t) // built before the clock starts
	start := time.Now()
	m := stdioManager(t, ServerConfig{Name: "mute", Command: server, Args: []string{"-hang"},
		Env: map[string]string{"PIDFILE": pidFile}}, Options{InitTimeout: 500 * time.Millisecond})
	// Far above the 500 ms asked for, so a loaded machine passes; a start that
	// waited for the default timeout (or forever) does not.
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("failing took %s", d)
	}
	st, _ := m.ServerStatus("mute")
	if st.State != StateFailed || st.Reason != "no answer to initialize within 500ms" {
		t.Errorf("status = %+v", st)
	}
	if pid := readPID(t, pidFile); alive(pid) {
		t.Errorf("the server (pid %d) that never answered is still running", pid)
	}
}

func TestStdioExitAtStartKeepsRedactedStderrTail(t *testing.T) {
	const secret = "sk-live-0123456789"
	m := stdioManager(t, ServerConfig{Name: "grumpy", Command: stdioServer(t), Args: []string{"-exit-at-start"},
		Env: map[string]string{"TOKEN": secret}}, Options{})
	st, _ := m.ServerStatus("grumpy")
	if st.State != StateFailed || st.Reason != "exited during start-up (exit status 1)" {
		t.Errorf("status = %+v", st)
	}
	// Coded for the UI: the code, and the exit status as a sentence of its own.
	if rt := st.ReasonText; rt == nil || rt.Code != "mcp_exited_at_start" || rt.English != st.Reason ||
		rt.Params["exit"].(uitext.Text).Code != "mcp_exit_status" || rt.Params["exit"].(uitext.Text).Params["status"] != "1" {
		t.Errorf("reason text = %+v", st.ReasonText)
	}
	if !strings.HasSuffix(st.Stderr, "fatal: the API rejected TOKEN=•••") {
		t.Errorf("stderr tail ends %q", st.Stderr[max(0, len(st.Stderr)-80):])
	}
	if !strings.HasPrefix(st.Stderr, "…noise") || len(st.Stderr) > stderrTailSize+8 {
		t.Errorf("stderr tail is %d bytes, starts %q", len(st.Stderr), st.Stderr[:20])
	}
	if strings.Contains(st.Stderr, secret) || st.Config.Env["TOKEN"] != Masked {
		t.Error("the secret shows in the status")
	}
}

func TestStdioCrashMidCallThenRestartOnUse(t *testing.T) {
	m := stdioManager(t, ServerConfig{Name: "fragile", Command: stdioServer(t)}, Options{})
	crash := toolNamed(t, m, "mcp__fragile__crash")
	echo := toolNamed(t, m, "mcp__fragile__echo")
	_, err := run(t, crash, `{}`)
	if err == nil || !strings.Contains(err.Error(), `the MCP server "fragile" stopped while running crash (exit status 3)`) ||
		!strings.Contains(err.Error(), "panic: the crash tool was called") {
		t.Fatalf("err = %v", err)
	}
	st, _ := m.ServerStatus("fragile")
	if st.State != StateFailed || !st.RestartsOnUse || !strings.Contains(st.Stderr, "the crash tool was called") {
		t.Errorf("status after the crash = %+v", st)
	}
	if len(m.Tools()) == 0 {
		t.Error("the crashed server's tools are no longer offered")
	}
	out, err := run(t, echo, `{"x":1}`)
	if err != nil || out.Text != `echo: {"x":1}` {
		t.Fatalf("call after the crash = %+v, %v", out, err)
	}
	if st, _ := m.ServerStatus("fragile"); st.State != StateReady || st.RestartsOnUse {
		t.Errorf("status after the restart = %+v", st)
	}
}

func TestStdioRestartOnUseOnlyOnce(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "started")
	m := stdioManager(t, ServerConfig{Name: "once", Command: stdioServer(t), Args: []string{"-fail-if-exists", marker}}, Options{})
	crash := toolNamed(t, m, "mcp__once__crash")
	if _, err := run(t, crash, `{}`); err == nil {
		t.Fatal("crash did not fail")
	}
	_, err := run(t, crash, `{}`)
	if err == nil || !strings.Contains(err.Error(), `the MCP server "once" had stopped and could not be restarted: exited during start-up (exit status 1)`) ||
		!strings.Contains(err.Error(), "refusing to start twice") {
		t.Fatalf("err = %v", err)
	}
	if len(m.Tools()) != 0 {
		t.Errorf("tools still offered: %v", toolNamesOf(m.Tools()))
	}
	_, err = run(t, crash, `{}`)
	if err == nil || !strings.Contains(err.Error(), `the MCP server "once" is not running (exited during start-up`) {
		t.Errorf("third call: %v", err)
	}
}

func TestStdioEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	m := stdioManager(t, ServerConfig{Name: "env", Command: stdioServer(t), Dir: dir, Env: map[string]string{"GREETING": "bonjour"}}, Options{})
	out, err := run(t, toolNamed(t, m, "mcp__env__where"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if out.Text != dir+" bonjour" && out.Text != real+" bonjour" {
		t.Errorf("where = %q, want %q", out.Text, dir+" bonjour")
	}
}

func TestStdioCloseLeavesNoProcess(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	m := stdioManager(t, ServerConfig{Name: "parent", Command: stdioServer(t), Env: map[string]string{"PIDFILE": pidFile}}, Options{})
	out, err := run(t, toolNamed(t, m, "mcp__parent__spawn"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	helper, _ := strconv.Atoi(out.Text)
	server := readPID(t, pidFile)
	if !alive(server) || !alive(helper) {
		t.Fatalf("server %d or helper %d not running before Close", server, helper)
	}
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %s", d)
	}
	waitUntil(t, func() bool { return !alive(server) && !alive(helper) }, "the server and its helper to be gone")
	if st, _ := m.ServerStatus("parent"); st.State != StateStopped {
		t.Errorf("status after Close = %+v", st)
	}
}

// A helper the server started in a session of its own (setsid), and one
// orphaned at once (setsid -f: no longer the server's descendant), both
// escape a process-group kill: Close must end them too.
func TestStdioCloseEndsSetsidHelpers(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	m := stdioManager(t, ServerConfig{Name: "sly", Command: stdioServer(t), Env: map[string]string{"PIDFILE": pidFile}}, Options{})
	var helpers []int
	for _, tool := range []string{"mcp__sly__spawn_setsid", "mcp__sly__spawn_orphan"} {
		out, err := run(t, toolNamed(t, m, tool), `{}`)
		if err != nil {
			t.Fatal(err)
		}
		pid, _ := strconv.Atoi(out.Text)
		if pid <= 0 || !alive(pid) {
			t.Fatalf("%s: helper %q not running", tool, out.Text)
		}
		helpers = append(helpers, pid)
	}
	server := readPID(t, pidFile)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return !alive(server) }, "the server to be gone")
	deadline := time.Now().Add(3 * time.Second)
	for _, pid := range helpers {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("helper %d outlived Close", pid)
		}
	}
}

// The SDK refuses a message over 16 MB and closes the connection; the
// server then exits 0 on the end of its input. The status says why it
// really failed, not "exited during start-up (exit status 0)".
func TestStdioOversizedListAtStartSaysWhy(t *testing.T) {
	for flag, want := range map[string]string{
		"-huge-list": "listing its tools failed: it sent a message over 16 MB, more than Airlock reads",
		"-huge-init": "the start-up handshake failed: it sent a message over 16 MB, more than Airlock reads",
	} {
		m := stdioManager(t, ServerConfig{Name: "bloated", Command: stdioServer(t), Args: []string{flag}}, Options{})
		if st, _ := m.ServerStatus("bloated"); st.State != StateFailed || st.Reason != want {
			t.Errorf("%s: status = %+v", flag, st)
		}
	}
}

// Helpers an Airlock left behind when it died without closing (the
// parent-death signal ends the server, not helpers in other sessions) are
// ended by the next Airlock's first Manager; those of a live Airlock stay.
func TestSweepOrphansOfADeadAirlock(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sweep reads /proc")
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	start := func(owner int) *exec.Cmd {
		cmd := exec.Command("sleep", "300")
		cmd.Env = append(os.Environ(), treeVar+"="+strconv.Itoa(owner)+".0123abcd")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	orphan, kept := start(gone.Process.Pid), start(os.Getpid())
	sweepOrphans()
	if err := orphan.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the dead Airlock's helper: %v", err)
	}
	if !alive(kept.Process.Pid) {
		t.Error("a live Airlock's helper was ended")
	}
}
