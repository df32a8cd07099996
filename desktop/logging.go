package desktop

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/wailsapp/wails/v2/pkg/logger"
	"gopkg.in/natefinch/lumberjack.v2"

	"airlock/backend/chat"
	"airlock/backend/redact"
)

// Log rotation: airlock.log grows to logMaxSizeMB, then is renamed with a
// timestamp; logMaxBackups renamed files are kept (3 files, at most 15 MB).
const (
	logDirName    = "logs"
	logFileName   = "airlock.log"
	logMaxSizeMB  = 5
	logMaxBackups = 2
)

// LogFile is where the app writes its log inside the data folder.
func LogFile(dataDir string) string {
	return filepath.Join(dataDir, logDirName, logFileName)
}

// logRotation is the rotating writer for dataDir's log file.
func logRotation(dataDir string) *lumberjack.Logger {
	return &lumberjack.Logger{
		Filename:   LogFile(dataDir),
		MaxSize:    logMaxSizeMB,
		MaxBackups: logMaxBackups,
		LocalTime:  true,
	}
}

// LogLevel reads AIRLOCK_LOG_LEVEL (debug, info, warn, error); info by default.
func LogLevel(s string) slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.TrimSpace(s))); err != nil {
		return slog.LevelInfo
	}
	return l
}

// OpenLog makes the app's logger: text lines to <dataDir>/logs/airlock.log
// (rotated) and to stderr. It also becomes slog's and the log package's
// default. The returned func closes the file.
func OpenLog(dataDir string, level slog.Level) (*slog.Logger, func() error, error) {
	if err := os.MkdirAll(filepath.Join(dataDir, logDirName), 0o700); err != nil {
		return nil, nil, err
	}
	rot := logRotation(dataDir)
	// The file comes first: on Windows a GUI app's stderr is not a valid
	// handle, and io.MultiWriter stops at the first writer that fails.
	w := io.MultiWriter(rot, os.Stderr)
	// Every line is masked: a provider's URL, an error quoting a request
	// line or a server's words that echo a key.
	l := slog.New(redact.Handler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
	slog.SetDefault(l)
	return l, rot.Close, nil
}

// redactURL hides credentials written into a URL (https://user:key@host/…,
// ?api_key=…).
func redactURL(s string) string { return redact.URL(s) }

// LogProvider writes the provider line at startup.
func LogProvider(log *slog.Logger, p chat.Provider, fromEnv bool) {
	log.Info("provider", "id", p.ID, "name", p.Name, "baseURL", redactURL(p.BaseURL), "model", p.Model,
		"fromEnvironment", fromEnv)
}

// FormatError is Wails' ErrorFormatter: errors returned by bound methods
// go to the log; the UI gets the same string Wails would send without one.
func FormatError(log *slog.Logger) func(error) any {
	return func(err error) any {
		log.Warn("call failed", "err", err)
		return err.Error()
	}
}

// WailsLogger sends Wails' own log lines to slog.
type WailsLogger struct{ l *slog.Logger }

// NewWailsLogger sends what Wails logs to l.
func NewWailsLogger(l *slog.Logger) WailsLogger { return WailsLogger{l} }

func (w WailsLogger) log(level slog.Level, msg string) {
	w.l.Log(context.Background(), level, strings.TrimRight(msg, "\r\n"), "src", "wails")
}

func (w WailsLogger) Print(m string)   { w.log(slog.LevelInfo, m) }
func (w WailsLogger) Trace(m string)   { w.log(slog.LevelDebug-4, m) }
func (w WailsLogger) Debug(m string)   { w.log(slog.LevelDebug, m) }
func (w WailsLogger) Info(m string)    { w.log(slog.LevelInfo, m) }
func (w WailsLogger) Warning(m string) { w.log(slog.LevelWarn, m) }
func (w WailsLogger) Error(m string)   { w.log(slog.LevelError, m) }

// Fatal logs; Wails exits the process itself right after.
func (w WailsLogger) Fatal(m string) { w.log(slog.LevelError, "fatal: "+m) }

// WailsLevel maps our level to Wails' so it does not format lines we drop.
func WailsLevel(l slog.Level) logger.LogLevel {
	switch {
	case l < slog.LevelDebug:
		return logger.TRACE
	case l < slog.LevelInfo:
		return logger.DEBUG
	case l < slog.LevelWarn:
		return logger.INFO
	case l < slog.LevelError:
		return logger.WARNING
	}
	return logger.ERROR
}
