package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"airlock/backend/chat"
)

// The audit trail on its own: JSON Lines (one chat.AuditEntry a line, as
// the app stores it) or CSV (a header row, then one decision a row). The
// app's Activity export and `airlockctl audit` write it.

// AuditFormats are the formats WriteAudit knows.
var AuditFormats = []string{"jsonl", "csv"}

// AuditWriter writes rows of the trail one at a time; Close flushes.
type AuditWriter interface {
	Write(e chat.AuditEntry) error
	Close() error
}

// NewAuditWriter writes the trail as "jsonl" or "csv" to w.
func NewAuditWriter(w io.Writer, format string) (AuditWriter, error) {
	return NewAuditWriterTitled(w, format, nil)
}

// NewAuditWriterTitled is NewAuditWriter whose CSV names each row's chat
// by its title too (title may be nil: the column stays empty).
func NewAuditWriterTitled(w io.Writer, format string, title func(chatID string) string) (AuditWriter, error) {
	switch strings.ToLower(format) {
	case "jsonl", "ndjson":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return jsonlWriter{enc}, nil
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(AuditCSVHeader); err != nil {
			return nil, err
		}
		if title == nil {
			title = func(string) string { return "" }
		}
		return csvWriter{cw, title}, nil
	}
	return nil, chat.Errorf("bad_format", chat.ErrInvalid, "unknown audit format %q (want jsonl or csv)", format)
}

type jsonlWriter struct{ enc *json.Encoder }

func (j jsonlWriter) Write(e chat.AuditEntry) error {
	e.Arguments = jsonValue(e.Arguments, "null")
	e.RunArguments = jsonValue(e.RunArguments, "null")
	e.Preview = jsonValue(e.Preview, "null")
	return j.enc.Encode(e)
}
func (jsonlWriter) Close() error { return nil }

// AuditCSVHeader is the first row of a CSV audit export. time is the
// event's UTC time (RFC 3339), at the same in Unix milliseconds.
// imported is "yes" for a row that came in an imported file (nothing
// vouches for it), "" for a decision made here.
var AuditCSVHeader = []string{"id", "uid", "time", "at", "chat_id", "chat_title", "call_id", "message_id", "tool", "decision", "decided_by",
	"rule_id", "rule", "detail", "arguments", "run_arguments", "preview", "result_status", "duration_ms", "imported"}

type csvWriter struct {
	w     *csv.Writer
	title func(chatID string) string
}

func (c csvWriter) Write(e chat.AuditEntry) error {
	return c.w.Write([]string{strconv.FormatInt(e.ID, 10), cell(e.UID),
		time.UnixMilli(e.At).UTC().Format("2006-01-02T15:04:05.000Z"), strconv.FormatInt(e.At, 10),
		cell(e.ChatID), cell(c.title(e.ChatID)), cell(e.CallID), cell(e.MessageID), cell(e.Tool), cell(string(e.Decision)), cell(e.DecidedBy),
		strconv.FormatInt(e.RuleID, 10), cell(e.Rule), cell(e.Detail), cell(compact(e.Arguments)),
		cell(compact(e.RunArguments)), cell(compact(e.Preview)), cell(string(e.ResultStatus)), strconv.FormatInt(e.DurationMs, 10),
		yes(e.Imported)})
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

func (c csvWriter) Close() error {
	c.w.Flush()
	return c.w.Error()
}

// cell guards a text cell against spreadsheet formulas: a cell a model
// could fill that starts with = + - @ (or a tab or CR) is prefixed with a
// quote, as OWASP advises, so opening the file runs nothing.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func compact(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}

// AuditRow is a row of the audit trail in a chat's JSON export: the
// chat.AuditEntry without its local id (the uid is its id here).
type AuditRow struct {
	ID           string          `json:"id"`
	CallID       string          `json:"callId"`
	MessageID    string          `json:"messageId"`
	Tool         string          `json:"tool"`
	Decision     string          `json:"decision"`
	DecidedBy    string          `json:"decidedBy"`
	RuleID       int64           `json:"ruleId"`
	Rule         string          `json:"rule"`
	Detail       string          `json:"detail"`
	At           int64           `json:"at"`
	Arguments    json.RawMessage `json:"arguments"`
	RunArguments json.RawMessage `json:"runArguments"`
	Preview      json.RawMessage `json:"preview"`
	ResultStatus string          `json:"resultStatus"`
	DurationMs   int64           `json:"durationMs"`
	// Imported says the row came here in an imported file (informative:
	// every row an import adds is marked imported, whatever this says).
	Imported bool `json:"imported,omitempty"`
}

func auditRow(e chat.AuditEntry) AuditRow {
	return AuditRow{ID: e.UID, CallID: e.CallID, MessageID: e.MessageID, Tool: e.Tool, Decision: string(e.Decision),
		DecidedBy: e.DecidedBy, RuleID: e.RuleID, Rule: e.Rule, Detail: e.Detail, At: e.At,
		Arguments: jsonValue(e.Arguments, "null"), RunArguments: jsonValue(e.RunArguments, "null"),
		Preview: jsonValue(e.Preview, "null"), ResultStatus: string(e.ResultStatus), DurationMs: e.DurationMs, Imported: e.Imported}
}

func (r AuditRow) entry(chatID string) (chat.AuditEntry, error) {
	e := chat.AuditEntry{UID: r.ID, ChatID: chatID, CallID: r.CallID, MessageID: r.MessageID, Tool: r.Tool,
		Decision: chat.AuditDecision(r.Decision), DecidedBy: r.DecidedBy, RuleID: r.RuleID, Rule: r.Rule, Detail: r.Detail,
		At: r.At, ResultStatus: chat.ToolStatus(r.ResultStatus), DurationMs: r.DurationMs}
	var err error
	for _, f := range []struct {
		dst *json.RawMessage
		v   json.RawMessage
	}{{&e.Arguments, r.Arguments}, {&e.RunArguments, r.RunArguments}, {&e.Preview, r.Preview}} {
		if *f.dst, err = storedJSON(f.v); err != nil {
			return e, err
		}
	}
	return e, nil
}

// Bounds on an imported trail: a file is not trusted to be reasonable.
const (
	MaxAuditRows     = 100_000 // per chat
	maxAuditIDBytes  = 128
	maxAuditText     = 16 << 10
	maxAuditJSONSize = 256 << 10
)

var auditStatuses = []string{"", "success", "error", "denied"}

// validateAudit checks a chat's imported trail. A row must be about a call
// the chat brings (callMessage: call id → its message), on that call's
// message; a row with no call (a run from the Tool lab) may name only a
// message of the chat. A chat's export holds every call of the chat, so a
// row about any other call was written by someone else.
func validateAudit(cp string, rows []AuditRow, callMessage map[string]string, messages map[string]string, unique func(id, path string) error) error {
	if len(rows) > MaxAuditRows {
		return importError("%s.audit: %d rows; at most %d are imported", cp, len(rows), MaxAuditRows)
	}
	for i, r := range rows {
		ap := fmt.Sprintf("%s.audit[%d]", cp, i)
		if len(r.ID) > maxAuditIDBytes {
			return importError("%s.id: longer than %d bytes", ap, maxAuditIDBytes)
		}
		if err := unique(r.ID, ap); err != nil {
			return err
		}
		switch {
		case !chat.ValidAuditDecision(r.Decision):
			return importError("%s.decision: unknown decision %q", ap, r.Decision)
		case !chat.ValidDecidedBy(r.DecidedBy):
			return importError("%s.decidedBy: unknown decider %q", ap, r.DecidedBy)
		case !oneOf(r.ResultStatus, auditStatuses):
			return importError("%s.resultStatus: unknown status %q", ap, r.ResultStatus)
		case r.At < 0 || r.DurationMs < 0 || r.RuleID < 0:
			return importError("%s: times, durations and rule ids cannot be negative", ap)
		case len(r.CallID) > maxAuditIDBytes || len(r.MessageID) > maxAuditIDBytes:
			return importError("%s: a call or message id longer than %d bytes", ap, maxAuditIDBytes)
		case len(r.Tool)+len(r.Rule)+len(r.Detail) > maxAuditText:
			return importError("%s: tool, rule and detail are longer than %d bytes", ap, maxAuditText)
		}
		if r.CallID != "" {
			msg, ok := callMessage[r.CallID]
			switch {
			case !ok:
				return importError("%s.callId: no tool call %q in this chat (a chat's trail is about its own calls)", ap, r.CallID)
			case r.MessageID != "" && r.MessageID != msg:
				return importError("%s.messageId: the call %q is on message %q, not %q", ap, r.CallID, msg, r.MessageID)
			}
		} else if _, ok := messages[r.MessageID]; r.MessageID != "" && !ok {
			return importError("%s.messageId: no message %q in this chat", ap, r.MessageID)
		}
		for field, v := range map[string]json.RawMessage{"arguments": r.Arguments, "runArguments": r.RunArguments, "preview": r.Preview} {
			if len(v) > maxAuditJSONSize {
				return importError("%s.%s: longer than %d bytes", ap, field, maxAuditJSONSize)
			}
			if len(bytes.TrimSpace(v)) > 0 && !json.Valid(v) {
				return importError("%s.%s: not valid JSON", ap, field)
			}
		}
	}
	return nil
}
