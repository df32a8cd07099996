//go:build !linux

package desktop

// WebView2 and WKWebView follow the system's caret settings themselves.
func CaretRestAfterMs() int        { return 0 }
func SetCaretResting(resting bool) {}
