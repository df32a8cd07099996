package facade

import (
	"net/url"
	"strings"
	"time"

	"airlock/backend/chat"

	"github.com/pkg/browser"
)

// openBrowser opens a URL in the system browser (tests replace it).
var openBrowser = browser.OpenURL

// browserGrace is how long a browser command may run before it counts as
// started: some (x-www-browser without a desktop) run until the browser closes.
const browserGrace = 4 * time.Second

// OpenURL opens an http, https or mailto link in the system browser. Unlike
// the runtime's BrowserOpenURL it says when that fails (no browser), so the
// UI can tell the user and offer to copy the link instead.
func (a *App) OpenURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto") {
		return toAPI(refuse("bad_link", chat.ErrInvalid, txtBadLink))
	}
	done := make(chan error, 1)
	go func() { done <- openBrowser(u.String()) }()
	select {
	case err = <-done:
	case <-time.After(browserGrace):
		return nil
	}
	if err != nil {
		return toAPI(refuse("no_browser", nil, txtNoBrowser))
	}
	return nil
}
