package redact

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler wraps h so every record it writes goes through Text: the message
// and every string (or printed) attribute, known secrets included. Use it
// for any log that may quote a URL or an error from a server.
func Handler(h slog.Handler, known ...string) slog.Handler {
	if sh, ok := h.(handler); ok { // wrapping twice: one pass with both lists
		return handler{sh.Handler, append(append([]string(nil), sh.known...), known...)}
	}
	return handler{h, known}
}

type handler struct {
	slog.Handler
	known []string
}

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, Text(r.Message, h.known...), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.Handler.Handle(ctx, out)
}

func (h handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return handler{h.Handler.WithAttrs(clean), h.known}
}

func (h handler) WithGroup(name string) slog.Handler {
	return handler{h.Handler.WithGroup(name), h.known}
}

func (h handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Text(v.String(), h.known...))
	case slog.KindAny:
		return slog.String(a.Key, Text(fmt.Sprint(v.Any()), h.known...))
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
