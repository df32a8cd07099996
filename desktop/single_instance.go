package desktop

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
)

// InstanceID names the single-instance lock for one data folder: a second
// launch on the same folder hands over to the running app and exits, while
// apps on different folders (tests, portable copies) run side by side.
// The ID only holds [a-z0-9-], which suits D-Bus names on Linux and
// mutex/window-class names on Windows.
func InstanceID(dataDir string) string {
	return "airlock-" + dataDirHash(dataDir, goruntime.GOOS)
}

func dataDirHash(dataDir, goos string) string {
	p := dataDir
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	p = filepath.Clean(p)
	if goos == "windows" || goos == "darwin" { // case-insensitive file systems by default
		p = strings.ToLower(p)
	}
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:8])
}

// workingDir is sent to the running instance with the arguments.
func workingDir() string {
	wd, _ := os.Getwd()
	return wd
}
