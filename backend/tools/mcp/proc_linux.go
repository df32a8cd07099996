package mcp

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// setParentDeathSignal has Linux kill the child if Airlock dies without
// stopping it (a crash, SIGKILL), so nothing outlives Airlock. (The signal
// follows the OS thread that started the child; Go keeps its threads
// unless a goroutine exits while locked to one, which Airlock's don't.)
// Its helpers in other sessions are not reached that way: Close ends them.
func setParentDeathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }

// treePIDs lists the processes of a server's tree, from /proc: the
// descendants of root (by their parent) and every process whose
// environment carries marker (helpers orphaned by a double fork, or whose
// parent already exited). Processes of other users can't be read and are
// not Airlock's to end anyway. Airlock itself is never listed.
func treePIDs(root int, marker string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	children := map[int][]int{}
	var out []int
	needle := []byte("\x00" + marker + "\x00")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || pid == root {
			continue
		}
		dir := "/proc/" + e.Name()
		if stat, err := os.ReadFile(dir + "/stat"); err == nil {
			// "pid (comm) S ppid ...": the fields after the last ')'.
			if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
				if f := bytes.Fields(stat[i+1:]); len(f) > 1 {
					if ppid, err := strconv.Atoi(string(f[1])); err == nil {
						children[ppid] = append(children[ppid], pid)
					}
				}
			}
		}
		if marker != "" {
			if env, err := os.ReadFile(dir + "/environ"); err == nil && bytes.Contains(append([]byte{0}, env...), needle) {
				out = append(out, pid)
			}
		}
	}
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if c != self {
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// sweepOrphans ends what an Airlock that died without closing (a crash,
// SIGKILL) left behind: the parent-death signal ends its servers, but not
// their helpers in other sessions. Those carry the marker with the dead
// Airlock's pid; a marker whose Airlock still runs is left alone.
func sweepOrphans() {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	prefix := []byte(treeVar + "=")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			owner, _, ok := strings.Cut(string(bytes.TrimPrefix(kv, prefix)), ".")
			if !bytes.HasPrefix(kv, prefix) || !ok {
				continue
			}
			if o, err := strconv.Atoi(owner); err == nil && o > 0 && syscall.Kill(o, 0) == syscall.ESRCH {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			break
		}
	}
}
