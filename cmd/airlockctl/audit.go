package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/export"
	"airlock/backend/store"
)

// runAudit prints the audit trail, oldest first: one decision a line
// (JSON Lines), or CSV with a header row. It opens the database read-only
// and never changes it, so it is safe while Airlock runs.
func runAudit(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := dataDirFlag(fs)
	chatID := fs.String("chat", "", "only this chat's decisions (by ID); default every chat")
	tool := fs.String("tool", "", "only the decisions on this tool")
	decision := fs.String("decision", "", "only this decision: "+decisionList())
	format := fs.String("format", "", "jsonl or csv")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: airlockctl audit [--data-dir DIR] [--chat ID] [--tool NAME] [--decision D] --format jsonl|csv")
		fs.PrintDefaults()
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "airlockctl audit: "+format+"\n", a...)
		return code
	}
	switch {
	case len(pos) > 0:
		return fail(exitUsage, "unexpected argument %q", pos[0])
	case *format == "":
		fs.Usage()
		return fail(exitUsage, "--format is required (jsonl or csv)")
	case *decision != "" && !chat.ValidAuditDecision(*decision):
		return fail(exitUsage, "unknown decision %q (want %s)", *decision, decisionList())
	}
	ctx := context.Background()
	var buf strings.Builder       // nothing is printed until the whole trail is read
	titles := map[string]string{} // each chat's title, read once (the CSV names chats by it too)
	var title func(chatID string) string
	w, err := export.NewAuditWriterTitled(&buf, *format, func(id string) string { return title(id) })
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	st, err := store.OpenReadOnly(*dataDir)
	if err != nil {
		return fail(exitUnreadable, "%v", err)
	}
	defer st.Close()
	title = func(id string) string {
		t, ok := titles[id]
		if !ok {
			if c, err := st.GetChat(ctx, id); err == nil {
				t = c.Title
			}
			titles[id] = t
		}
		return t
	}
	if v, err := st.SchemaVersion(ctx); err != nil {
		return fail(exitUnreadable, "%v", err)
	} else if v < store.AuditSchema {
		return fail(exitUnreadable, "the database in %s predates the audit trail (schema %d); open it with this Airlock once", *dataDir, v)
	}
	if *chatID != "" {
		if _, err := st.GetChat(ctx, *chatID); err != nil {
			return fail(exitUnreadable, "%v", err)
		}
	}
	q := store.AuditQuery{ChatID: *chatID, Tool: *tool, Decision: *decision}
	if err := st.EachAudit(ctx, q, w.Write); err != nil {
		return fail(exitUnreadable, "%v", err)
	}
	if err := w.Close(); err != nil {
		return fail(exitUnreadable, "%v", err)
	}
	if _, err := io.WriteString(stdout, buf.String()); err != nil {
		return fail(exitUnreadable, "%v", err)
	}
	return exitOK
}

func decisionList() string {
	names := make([]string, len(chat.AuditDecisions))
	for i, d := range chat.AuditDecisions {
		names[i] = string(d)
	}
	return strings.Join(names, ", ")
}
