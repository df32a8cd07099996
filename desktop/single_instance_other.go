//go:build !linux && !windows

package desktop

import "github.com/wailsapp/wails/v2/pkg/options"

// Elsewhere (macOS) Wails' own lock does the work when the window is created.
const WailsLockNeeded = true

type instanceLock struct{}

func (*instanceLock) SetHandler(func(options.SecondInstanceData)) {}
func (*instanceLock) Close()                                      {}

func LockInstance(string) (*instanceLock, bool, error) { return nil, false, nil }
