package mcp

import (
	"context"
	"fmt"
	"log/slog"
)

// scrubHandler masks a server's secrets in what the SDK logs about it
// (transport errors can quote a URL with its key, or a header).
type scrubHandler struct {
	slog.Handler
	secrets []string
}

func scrubbingLogger(l *slog.Logger, secrets []string) *slog.Logger {
	if len(secrets) == 0 {
		return l
	}
	return slog.New(scrubHandler{l.Handler(), secrets})
}

func (h scrubHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, scrub(r.Message, h.secrets), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.Handler.Handle(ctx, out)
}

func (h scrubHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return scrubHandler{h.Handler.WithAttrs(clean), h.secrets}
}

func (h scrubHandler) WithGroup(name string) slog.Handler {
	return scrubHandler{h.Handler.WithGroup(name), h.secrets}
}

func (h scrubHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, scrub(v.String(), h.secrets))
	case slog.KindAny:
		return slog.String(a.Key, scrub(fmt.Sprint(v.Any()), h.secrets))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]any, len(group))
		for i, g := range group {
			clean[i] = h.attr(g)
		}
		return slog.Group(a.Key, clean...)
	}
	return slog.Attr{Key: a.Key, Value: v}
}
