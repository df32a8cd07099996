// Package desktop is the shell around the app on a desktop: one instance per
// data folder (and handing over to it), the window's size and place kept
// between runs, the native menu, the resting caret, API keys in the system
// keychain, the log file, and opening the database at start (setting a
// damaged one aside). main composes it; nothing in backend/ imports it.
package desktop
