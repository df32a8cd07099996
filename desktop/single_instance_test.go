package desktop

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

func TestInstanceID(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	id := InstanceID(a)
	if !regexp.MustCompile(`^airlock-[0-9a-f]{16}$`).MatchString(id) {
		t.Fatalf("InstanceID = %q, want airlock-<16 hex>", id)
	}
	if InstanceID(a) != id {
		t.Error("InstanceID is not stable")
	}
	if InstanceID(b) == id {
		t.Error("different data folders share a lock")
	}
	// The same folder, however it is spelled, is one lock.
	if got := InstanceID(a + string(filepath.Separator)); got != id {
		t.Errorf("trailing separator: %q != %q", got, id)
	}
	if got := InstanceID(filepath.Join(a, "..", "a")); got != id {
		t.Errorf("a/../a: %q != %q", got, id)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(a, link); err == nil {
		if got := InstanceID(link); got != id {
			t.Errorf("symlink: %q != %q", got, id)
		}
	}
	t.Chdir(dir)
	if got := InstanceID("a"); got != id {
		t.Errorf("relative path: %q != %q", got, id)
	}
}

func TestDataDirHashCase(t *testing.T) {
	if dataDirHash("/X/Airlock", "windows") != dataDirHash("/x/airlock", "windows") {
		t.Error("Windows paths differ only in case but get different locks")
	}
	if dataDirHash("/X/Airlock", "linux") == dataDirHash("/x/airlock", "linux") {
		t.Error("Linux paths that differ in case share a lock")
	}
}
