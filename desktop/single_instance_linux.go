//go:build linux

package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/wailsapp/wails/v2/pkg/options"
)

// On Linux the app holds the single-instance lock itself rather than through
// options.App.SingleInstanceLock: Wails takes its lock only once the window
// is being created, after the database is open, and a second launch that
// loses that race exits with status 1. Taking it first thing in main means a
// second launch never touches the data folder and always exits 0. The bus
// name and message are the ones Wails uses, so either side may be an older
// build.
const WailsLockNeeded = false

// dbusNames are the bus name and object path of the lock for id, as in
// Wails' internal/frontend/desktop/linux/single_instance.go.
func dbusNames(id string) (name, path string) {
	s := "wails_app_" + strings.NewReplacer("-", "_", ".", "_").Replace(id)
	return "org." + s + ".SingleInstance", "/org/" + s + "/SingleInstance"
}

// singleInstanceAvailable says whether a D-Bus session bus is there without
// starting one: with none, godbus would "autolaunch" a daemon that outlives
// the app, so the single-instance lock is left off instead.
func singleInstanceAvailable() bool {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return true
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		if fi, err := os.Stat(filepath.Join(d, "bus")); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return true
		}
	}
	return false
}

var errInstanceNotResponding = errors.New("another Airlock is running on this data folder but does not respond")

// instanceLock is the held lock: the bus name, and the handler for launches
// that hand over to us.
type instanceLock struct {
	conn    *dbus.Conn
	mu      sync.Mutex
	handler func(options.SecondInstanceData)
	pending []options.SecondInstanceData // arrived before setHandler
}

// SendMessage is called over D-Bus by a second launch.
func (l *instanceLock) SendMessage(message string) *dbus.Error {
	var data options.SecondInstanceData
	if err := json.Unmarshal([]byte(message), &data); err != nil {
		return nil
	}
	l.mu.Lock()
	h := l.handler
	if h == nil {
		l.pending = append(l.pending, data)
	}
	l.mu.Unlock()
	if h != nil {
		go h(data)
	}
	return nil
}

// setHandler sets what runs for each later launch on the same data folder.
func (l *instanceLock) SetHandler(h func(options.SecondInstanceData)) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.handler = h
	pending := l.pending
	l.pending = nil
	l.mu.Unlock()
	for _, d := range pending {
		go h(d)
	}
}

func (l *instanceLock) Close() {
	if l != nil {
		l.conn.Close() // the bus releases the name with the connection
	}
}

// LockInstance takes the lock for id. When another process holds it, that
// one is asked to show its window and handedOver is true: this process
// should exit (err says when the other did not answer). A nil lock and no
// hand-over means no lock is possible here (no session bus): run anyway.
func LockInstance(id string) (lock *instanceLock, handedOver bool, err error) {
	if !singleInstanceAvailable() {
		return nil, false, nil
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, false, nil
	}
	name, path := dbusNames(id)
	l := &instanceLock{conn: conn}
	if err := conn.Export(l, dbus.ObjectPath(path), name); err != nil {
		conn.Close()
		return nil, false, nil
	}
	msg, _ := json.Marshal(options.SecondInstanceData{Args: os.Args[1:], WorkingDirectory: workingDir()})
	for attempt := 1; ; attempt++ {
		reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
		if err != nil {
			conn.Close()
			return nil, false, nil
		}
		if reply == dbus.RequestNameReplyPrimaryOwner {
			return l, false, nil
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = conn.Object(name, dbus.ObjectPath(path)).CallWithContext(ctx, name+".SendMessage", 0, string(msg)).Err
		cancel()
		if err != nil && ownerGone(dbusErrorName(err)) && attempt < 3 {
			// The owner exited between the two calls; the name is free now.
			time.Sleep(50 * time.Millisecond)
			continue
		}
		conn.Close()
		if err != nil {
			return nil, true, errInstanceNotResponding
		}
		return nil, true, nil
	}
}

// dbusErrorName is the D-Bus error name in err, if it is a D-Bus error.
func dbusErrorName(err error) string {
	var e dbus.Error
	if errors.As(err, &e) {
		return e.Name
	}
	var pe *dbus.Error
	if errors.As(err, &pe) && pe != nil {
		return pe.Name
	}
	return ""
}

func ownerGone(errName string) bool {
	return errName == "org.freedesktop.DBus.Error.ServiceUnknown" || errName == "org.freedesktop.DBus.Error.NameHasNoOwner"
}
