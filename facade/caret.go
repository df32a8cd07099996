package facade

import "airlock/desktop"

// CaretRestAfter is how long (ms) the caret may blink without input before it
// should hold still, as GTK's own fields do; 0 means never (not on Linux, or
// the desktop turned blinking off).
func (a *App) CaretRestAfter() int { return desktop.CaretRestAfterMs() }

// SetCaretResting stops (true) or restores (false) the caret's blinking. The
// frontend restarts the caret after stopping it, so that it rests shown.
func (a *App) SetCaretResting(resting bool) { desktop.SetCaretResting(resting) }
