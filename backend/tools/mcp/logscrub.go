package mcp

import (
	"log/slog"

	"airlock/backend/redact"
)

// scrubbingLogger masks a server's secrets in what the SDK logs about it
// (transport errors can quote a URL with its key, or a header).
func scrubbingLogger(l *slog.Logger, secrets []string) *slog.Logger {
	if len(secrets) == 0 {
		return l
	}
	return slog.New(redact.Handler(l.Handler(), secrets...))
}
