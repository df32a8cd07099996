//go:build !linux && !windows

package main

import "github.com/wailsapp/wails/v2/pkg/options"

// Elsewhere (macOS) Wails' own lock does the work when the window is created.
const wailsLockNeeded = true

type instanceLock struct{}

func (*instanceLock) setHandler(func(options.SecondInstanceData)) {}
func (*instanceLock) close()                                      {}

func lockInstance(string) (*instanceLock, bool, error) { return nil, false, nil }
