package facade

import (
	"airlock/desktop"
	goruntime "runtime"
)

// AboutInfo is what the About dialog shows.
type AboutInfo struct {
	Name      string `json:"name"`
	Version   string `json:"version"`   // from git describe at build time, "dev" otherwise
	DataDir   string `json:"dataDir"`   // absolute; OpenDataDir opens it
	LogFile   string `json:"logFile"`   // <dataDir>/logs/airlock.log
	Platform  string `json:"platform"`  // GOOS/GOARCH, e.g. linux/amd64
	GoVersion string `json:"goVersion"` // toolchain the binary was built with
}

// About describes the running app for the About dialog.
func (a *App) About() AboutInfo {
	return AboutInfo{
		Name:      "Airlock",
		Version:   Version,
		DataDir:   a.dataDir,
		LogFile:   desktop.LogFile(a.dataDir),
		Platform:  goruntime.GOOS + "/" + goruntime.GOARCH,
		GoVersion: goruntime.Version(),
	}
}

// OpenDataDir shows the data folder in the system's file manager.
func (a *App) OpenDataDir() error {
	if err := desktop.OpenFolder(a.dataDir); err != nil {
		return apiError{Code: "open_failed", Message: err.Error()}
	}
	return nil
}
