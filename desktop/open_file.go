package desktop

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
)

// OpenFile opens a file with the system's default application for its type
// (xdg-open, open, explorer.exe), the path passed as one argument, never
// through a shell. Files the opener would run rather than open are refused
// (see runnable): "Open in editor" never starts a program a model may have
// written.
func OpenFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s cannot be opened: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if why := runnable(goruntime.GOOS, filepath.Base(path), fi.Mode()); why != "" {
		return fmt.Errorf("%s is not opened: %s; open it from your file manager if you mean to", filepath.Base(path), why)
	}
	return openWith(path, "no opener (%s) was found to open %s")
}

// Extensions the system's opener runs (or installs) instead of opening in an
// editor, by platform; every platform's list applies to .jar.
var runExtensions = map[string][]string{
	"windows": {".exe", ".com", ".bat", ".cmd", ".msi", ".msp", ".scr", ".pif", ".cpl", ".msc", ".hta", ".lnk", ".url",
		".ps1", ".psm1", ".vbs", ".vbe", ".js", ".jse", ".wsf", ".wsh", ".reg", ".appx", ".msix", ".application", ".jar"},
	"darwin": {".app", ".command", ".tool", ".pkg", ".mpkg", ".terminal", ".workflow", ".action", ".scpt", ".jar", ".webloc"},
	"linux":  {".desktop", ".appimage", ".run", ".jar", ".deb", ".rpm", ".flatpakref"},
}

// runnable says why the opener would run the file rather than open it ("" when
// it would open it): a program's extension, or (outside Windows) an
// executable bit.
func runnable(goos, name string, mode os.FileMode) string {
	list, ok := runExtensions[goos]
	if !ok {
		list = runExtensions["linux"]
	}
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range list {
		if ext == e {
			return "it is a program or an installer (" + ext + "), which the system would run"
		}
	}
	if goos != "windows" && mode&0o111 != 0 {
		return "it is marked executable, so the system might run it"
	}
	return ""
}
