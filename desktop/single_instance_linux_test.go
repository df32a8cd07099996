//go:build linux

package desktop

import (
	"bufio"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/wailsapp/wails/v2/pkg/options"
)

func TestDBusNames(t *testing.T) {
	name, path := dbusNames("airlock-0123456789abcdef")
	if name != "org.wails_app_airlock_0123456789abcdef.SingleInstance" {
		t.Errorf("name = %q", name)
	}
	if path != "/org/wails_app_airlock_0123456789abcdef/SingleInstance" {
		t.Errorf("path = %q", path)
	}
	// D-Bus: elements of [A-Za-z0-9_-] not starting with a digit, at most 255 bytes.
	element := `[A-Za-z_-][A-Za-z0-9_-]*`
	if !regexp.MustCompile(`^`+element+`(\.`+element+`)+$`).MatchString(name) || len(name) > 255 {
		t.Errorf("%q is not a valid bus name", name)
	}
	if !regexp.MustCompile(`^(/[A-Za-z0-9_]+)+$`).MatchString(path) {
		t.Errorf("%q is not a valid object path", path)
	}
	if n, _ := dbusNames(InstanceID(t.TempDir())); !regexp.MustCompile(`^` + element + `(\.` + element + `)+$`).MatchString(n) {
		t.Errorf("%q is not a valid bus name", n)
	}
}

func TestSingleInstanceAvailableWithoutBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if singleInstanceAvailable() {
		t.Error("with no session bus the lock must stay off (godbus would start a daemon)")
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus")
	if !singleInstanceAvailable() {
		t.Error("a session bus address is there")
	}
}

// privateBus starts a D-Bus session daemon for the test, or skips.
func privateBus(t *testing.T) {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed")
	}
	cmd := exec.Command(daemon, "--session", "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("dbus-daemon does not start: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the bus address: %v", err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", strings.TrimSpace(addr))
}

func TestInstanceLockOverDBus(t *testing.T) {
	privateBus(t)
	id := InstanceID(t.TempDir())

	first, handedOver, err := LockInstance(id)
	if first == nil || handedOver || err != nil {
		t.Fatalf("first LockInstance = %v, %v, %v; want the lock", first, handedOver, err)
	}
	defer first.Close()

	// A launch before the app has a handler is kept, then delivered.
	if lock, handedOver, err := LockInstance(id); lock != nil || !handedOver || err != nil {
		t.Fatalf("second LockInstance = %v, %v, %v; want a hand-over", lock, handedOver, err)
	}
	got := make(chan options.SecondInstanceData, 4)
	first.SetHandler(func(d options.SecondInstanceData) { got <- d })
	select {
	case d := <-got:
		if d.WorkingDirectory == "" {
			t.Errorf("hand-over data = %+v, want the working directory", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the early hand-over was not delivered")
	}
	if _, handedOver, err := LockInstance(id); !handedOver || err != nil {
		t.Fatalf("third LockInstance: handedOver %v, err %v", handedOver, err)
	}
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the hand-over was not delivered")
	}

	// Another data folder is another lock.
	other, handedOver, err := LockInstance(InstanceID(t.TempDir()))
	if other == nil || handedOver || err != nil {
		t.Fatalf("lock on another folder = %v, %v, %v", other, handedOver, err)
	}
	other.Close()

	// Closing releases it (as a crash would).
	first.Close()
	var again *instanceLock
	for deadline := time.Now().Add(5 * time.Second); again == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		again, _, _ = LockInstance(id)
	}
	if again == nil {
		t.Fatal("the lock was not released")
	}
	again.Close()
}

func TestInstanceLockWithoutBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if lock, handedOver, err := LockInstance("airlock-x"); lock != nil || handedOver || err != nil {
		t.Fatalf("LockInstance without a bus = %v, %v, %v; want to run unlocked", lock, handedOver, err)
	}
}

func TestOwnerGone(t *testing.T) {
	gone := dbus.Error{Name: "org.freedesktop.DBus.Error.ServiceUnknown"}
	if !ownerGone(dbusErrorName(gone)) || !ownerGone(dbusErrorName(fmt.Errorf("call: %w", gone))) ||
		!ownerGone(dbusErrorName(dbus.NewError("org.freedesktop.DBus.Error.NameHasNoOwner", nil))) {
		t.Error("a vanished owner is not recognised")
	}
	if ownerGone(dbusErrorName(dbus.Error{Name: "org.freedesktop.DBus.Error.NoReply"})) || ownerGone(dbusErrorName(errors.New("x"))) {
		t.Error("other errors taken for a vanished owner")
	}
}
