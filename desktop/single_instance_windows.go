//go:build windows

package desktop

import (
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"unsafe"

	"github.com/wailsapp/wails/v2/pkg/options"
	"golang.org/x/sys/windows"
)

var (
	user32                       = windows.NewLazySystemDLL("user32.dll")
	procFindWindowW              = user32.NewProc("FindWindowW")
	procSendMessageTimeoutW      = user32.NewProc("SendMessageTimeoutW")
	procAllowSetForegroundWindow = user32.NewProc("AllowSetForegroundWindow")
)

const (
	wmCopyData          = 0x004A
	smtoAbortIfHung     = 0x0002
	asfwAny             = 0xFFFFFFFF
	copyDataSingleInst  = 1542 // Wails' WMCOPYDATA_SINGLE_INSTANCE_DATA
	handOverTimeoutMsec = 5000
)

type copyDataStruct struct {
	dwData uintptr
	cbData uint32
	lpData uintptr
}

// On Windows Wails' lock (a named mutex and a message window, taken before
// the window is created) does the work; LockInstance only checks it early,
// before the database is opened.
const WailsLockNeeded = true

// instanceLock: nothing held here (Wails holds the mutex).
type instanceLock struct{}

func (*instanceLock) SetHandler(func(options.SecondInstanceData)) {}
func (*instanceLock) Close()                                      {}

var errInstanceNotResponding = errors.New("another Airlock is running on this data folder but does not respond")

// LockInstance runs before anything touches the data folder. It checks the
// named mutex Wails' lock (internal/frontend/desktop/windows/
// single_instance.go) creates for id; if it is held, it sends the running app
// the same WM_COPYDATA message Wails sends, so that app comes to the front,
// and reports handedOver: this process should exit.
func LockInstance(id string) (lock *instanceLock, handedOver bool, err error) {
	handedOver, err = handOver(id)
	return nil, handedOver, err
}

func handOver(id string) (bool, error) {
	base := "wails-app-" + id
	h, err := windows.CreateMutex(nil, false, windows.StringToUTF16Ptr(base+"sim"))
	if h != 0 {
		defer windows.CloseHandle(h)
	}
	if !errors.Is(err, windows.ERROR_ALREADY_EXISTS) {
		return false, nil
	}
	hwnd, _, _ := procFindWindowW.Call(
		uintptr(unsafe.Pointer(windows.StringToUTF16Ptr(base+"-sic"))),
		uintptr(unsafe.Pointer(windows.StringToUTF16Ptr(base+"-siw"))))
	if hwnd == 0 {
		return false, nil
	}
	msg, _ := json.Marshal(options.SecondInstanceData{Args: os.Args[1:], WorkingDirectory: workingDir()})
	text, err := windows.UTF16FromString(string(msg))
	if err != nil {
		return false, nil
	}
	cds := copyDataStruct{dwData: copyDataSingleInst, cbData: uint32(len(text) * 2), lpData: uintptr(unsafe.Pointer(&text[0]))}
	// The running app may raise its window: we are the foreground process.
	procAllowSetForegroundWindow.Call(uintptr(asfwAny))
	var result uintptr
	ok, _, _ := procSendMessageTimeoutW.Call(hwnd, wmCopyData, 0, uintptr(unsafe.Pointer(&cds)),
		smtoAbortIfHung, handOverTimeoutMsec, uintptr(unsafe.Pointer(&result)))
	runtime.KeepAlive(text)
	if ok == 0 {
		return true, errInstanceNotResponding
	}
	return true, nil
}
