package facade

import (
	"errors"
	"testing"
)

func TestOpenURLSaysWhenNoBrowserOpens(t *testing.T) {
	old := openBrowser
	t.Cleanup(func() { openBrowser = old })
	var opened []string
	openBrowser = func(u string) error { opened = append(opened, u); return nil }
	a := &App{}
	if err := a.OpenURL(" https://example.com/a?b=1 "); err != nil || len(opened) != 1 || opened[0] != "https://example.com/a?b=1" {
		t.Fatalf("open: %v %v", err, opened)
	}
	for _, bad := range []string{"javascript:alert(1)", "file:///etc/passwd", "ftp://x"} {
		if err := a.OpenURL(bad); err == nil || err.(apiError).Code != "bad_link" {
			t.Errorf("%s: %v", bad, err)
		}
	}
	openBrowser = func(string) error { return errors.New(`exec: "xdg-open": executable file not found in $PATH`) }
	err := a.OpenURL("https://example.com")
	if err == nil || err.(apiError).Code != "no_browser" {
		t.Fatalf("no browser: %v", err)
	}
}
