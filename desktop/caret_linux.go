//go:build linux

package desktop

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>

// GTK's own text fields stop blinking after gtk-cursor-blink-timeout seconds
// without input; WebKitGTK's caret blinks for ever, and each blink repaints in
// the web process and in this one (~7 ms of CPU a second, all day, while the
// composer has focus — the same in an empty Wails app with a focused input).
// The frontend asks for the timeout and, when it passes, makes the blink time
// so long that the caret holds still (store/caret.ts); input gives the user's
// blink time back. GtkSettings belong to the GTK main thread, hence the idle
// callbacks.
static gint airlockUserBlinkMs = -1;   // -1 until read
static gint airlockRestAfterMs;        // 0: never rest (blinking is off, or no timeout)
static GMutex airlockCaretMu;
static GCond airlockCaretRead;

static gboolean airlockReadCaretSettings(gpointer data) {
	gboolean blink = TRUE;
	gint blinkMs = 1200, timeoutS = 10;
	g_object_get(gtk_settings_get_default(), "gtk-cursor-blink", &blink,
		"gtk-cursor-blink-time", &blinkMs, "gtk-cursor-blink-timeout", &timeoutS, NULL);
	g_mutex_lock(&airlockCaretMu);
	airlockUserBlinkMs = blinkMs;
	airlockRestAfterMs = (blink && timeoutS > 0 && timeoutS < 24 * 3600) ? timeoutS * 1000 : 0;
	g_cond_broadcast(&airlockCaretRead);
	g_mutex_unlock(&airlockCaretMu);
	return G_SOURCE_REMOVE;
}

// Called from a Go goroutine, never the GTK thread: waits (at most 2 s) for the read.
static gint airlockCaretRestAfter(void) {
	gint64 until = g_get_monotonic_time() + 2 * G_TIME_SPAN_SECOND;
	g_mutex_lock(&airlockCaretMu);
	if (airlockUserBlinkMs < 0) {
		g_idle_add(airlockReadCaretSettings, NULL);
		while (airlockUserBlinkMs < 0)
			if (!g_cond_wait_until(&airlockCaretRead, &airlockCaretMu, until)) break;
	}
	gint ms = airlockUserBlinkMs < 0 ? 0 : airlockRestAfterMs;
	g_mutex_unlock(&airlockCaretMu);
	return ms;
}

static gboolean airlockApplyBlink(gpointer resting) {
	g_mutex_lock(&airlockCaretMu);
	gint ms = GPOINTER_TO_INT(resting) ? G_MAXINT : airlockUserBlinkMs;
	gboolean known = airlockUserBlinkMs > 0 && airlockRestAfterMs > 0;
	g_mutex_unlock(&airlockCaretMu);
	if (known) g_object_set(gtk_settings_get_default(), "gtk-cursor-blink-time", ms, NULL);
	return G_SOURCE_REMOVE;
}

static void airlockSetCaretResting(gboolean resting) {
	g_idle_add(airlockApplyBlink, GINT_TO_POINTER(resting ? 1 : 0));
}
*/
import "C"

import (
	"context"
	"time"

	"github.com/godbus/dbus/v5"
)

// CaretRestAfterMs is 0 with a screen reader running: resting refocuses the
// composer, which a screen reader would announce each time.
func CaretRestAfterMs() int {
	if screenReaderOn() {
		return 0
	}
	return int(C.airlockCaretRestAfter())
}

// screenReaderOn asks the accessibility bus (org.a11y.Status), as GTK and
// Orca use it; no session bus or no answer in 500 ms counts as off.
func screenReaderOn() bool {
	conn, err := dbus.SessionBus()
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var v dbus.Variant
	err = conn.Object("org.a11y.Bus", "/org/a11y/bus").CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0, "org.a11y.Status", "ScreenReaderEnabled").Store(&v)
	on, _ := v.Value().(bool)
	return err == nil && on
}

func SetCaretResting(resting bool) {
	v := C.gboolean(0)
	if resting {
		v = 1
	}
	C.airlockSetCaretResting(v)
}
