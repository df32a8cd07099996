package desktop

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wailsapp/wails/v2/pkg/logger"

	"airlock/backend/chat"
)

func TestLogRotationConfig(t *testing.T) {
	r := logRotation("/data")
	if r.Filename != filepath.Join("/data", "logs", "airlock.log") {
		t.Errorf("Filename = %q", r.Filename)
	}
	if r.MaxSize != 5 || r.MaxBackups != 2 || r.MaxAge != 0 || r.Compress {
		t.Errorf("rotation = %d MB × (1 + %d backups), age %d, compress %v; want 5 MB × 3 files, kept regardless of age, plain",
			r.MaxSize, r.MaxBackups, r.MaxAge, r.Compress)
	}
}

func TestLogRotates(t *testing.T) {
	dir := t.TempDir()
	r := logRotation(dir)
	r.MaxSize = 1 // MB, the smallest lumberjack takes
	defer r.Close()
	line := []byte(strings.Repeat("x", 1023) + "\n")
	for range 3*1024 + 100 { // a bit over 3 MB: three rotations
		if _, err := r.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	// Old files are removed in the background.
	var names []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		entries, _ := os.ReadDir(filepath.Join(dir, "logs"))
		names = names[:0]
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if len(names) == 1+logMaxBackups {
			break
		}
	}
	if len(names) != 1+logMaxBackups {
		t.Fatalf("log files = %v, want airlock.log and %d backups", names, logMaxBackups)
	}
	for _, n := range names {
		fi, err := os.Stat(filepath.Join(dir, "logs", n))
		if err != nil || fi.Size() > 1<<20 {
			t.Errorf("%s: size %v, err %v", n, fi.Size(), err)
		}
	}
}

func TestOpenLogWritesToFile(t *testing.T) {
	dir := t.TempDir()
	prev := slog.Default()
	defer slog.SetDefault(prev)
	l, closeLog, err := OpenLog(dir, slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	l.Info("hello", "k", "v")
	l.Debug("hidden")
	WailsLogger{l}.Error("from wails\n")
	if err := closeLog(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(LogFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"msg=hello k=v", `level=ERROR msg="from wails" src=wails`} {
		if !strings.Contains(s, want) {
			t.Errorf("log lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "hidden") {
		t.Errorf("debug line written at info level:\n%s", s)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "logs")); fi.Mode().Perm() != 0o700 {
		t.Errorf("logs folder mode %v, want 0700", fi.Mode().Perm())
	}
}

func TestLogLevels(t *testing.T) {
	for in, want := range map[string]slog.Level{"": slog.LevelInfo, "debug": slog.LevelDebug, "WARN": slog.LevelWarn,
		" error ": slog.LevelError, "nonsense": slog.LevelInfo} {
		if got := LogLevel(in); got != want {
			t.Errorf("LogLevel(%q) = %v, want %v", in, got, want)
		}
	}
	for in, want := range map[slog.Level]logger.LogLevel{slog.LevelDebug - 4: logger.TRACE, slog.LevelDebug: logger.DEBUG,
		slog.LevelInfo: logger.INFO, slog.LevelWarn: logger.WARNING, slog.LevelError: logger.ERROR} {
		if got := WailsLevel(in); got != want {
			t.Errorf("WailsLevel(%v) = %v, want %v", in, got, want)
		}
	}
	var buf bytes.Buffer
	wl := WailsLogger{slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug - 4}))}
	wl.Trace("t")
	wl.Warning("w")
	wl.Fatal("f")
	for _, want := range []string{"level=DEBUG-4 msg=t", "level=WARN msg=w", `level=ERROR msg="fatal: f"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("wails adapter output lacks %q:\n%s", want, buf.String())
		}
	}
}

// A provider URL's password and query key, and an error that quotes them,
// never reach the log: not the provider line, not a bound call's failure.
func TestLogHidesSecrets(t *testing.T) {
	dir := t.TempDir()
	prev := slog.Default()
	defer slog.SetDefault(prev)
	l, closeLog, err := OpenLog(dir, slog.LevelInfo)
	if err != nil {
		t.Fatal(err)
	}
	base := "https://user:pw-SECRET-1@example.com/v1?api_key=qk-SECRET-2&api-version=2024-06-01"
	LogProvider(l, chat.Provider{ID: "p", Name: "P", BaseURL: base, Model: "m"}, false)
	FormatError(l)(errors.New(`Post "` + base + `/chat/completions": dial tcp: refused; token=tk-SECRET-3`))
	slog.Warn("from anywhere", "url", base)
	if err := closeLog(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(LogFile(dir))
	for _, secret := range []string{"pw-SECRET-1", "qk-SECRET-2", "tk-SECRET-3"} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the log shows %s:\n%s", secret, b)
		}
	}
	for _, kept := range []string{"example.com/v1", "api-version=2024-06-01", "call failed", "provider"} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("the log lost %q:\n%s", kept, b)
		}
	}
}
