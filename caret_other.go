//go:build !linux

package main

// WebView2 and WKWebView follow the system's caret settings themselves.
func caretRestAfterMs() int        { return 0 }
func setCaretResting(resting bool) {}
