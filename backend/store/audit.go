package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	"airlock/backend/chat"
)

// The audit trail: one row per decision on a call (chat.AuditEntry), only
// ever appended. Arguments and previews are bounded (chat.BoundJSON); only
// what the model proposed and the person decided is kept, nothing of the
// providers' or MCP servers' settings.

const auditColumns = `id, uid, chat_id, call_id, message_id, tool, decision, decided_by, rule_id, rule, detail, at,
	arguments, run_arguments, preview, result_status, duration_ms, imported`

func scanAudit(r scanner) (chat.AuditEntry, error) {
	var e chat.AuditEntry
	var args, run, preview string
	err := r.Scan(&e.ID, &e.UID, &e.ChatID, &e.CallID, &e.MessageID, &e.Tool, &e.Decision, &e.DecidedBy, &e.RuleID,
		&e.Rule, &e.Detail, &e.At, &args, &run, &preview, &e.ResultStatus, &e.DurationMs, &e.Imported)
	e.Arguments, e.RunArguments, e.Preview = rawOrNil(args), rawOrNil(run), rawOrNil(preview)
	return e, err
}

// cleanAudit checks a row and bounds what it carries.
func cleanAudit(e chat.AuditEntry) (chat.AuditEntry, error) {
	switch {
	case strings.TrimSpace(e.ChatID) == "":
		return e, invalid("an audit row needs its chat")
	case !chat.ValidAuditDecision(string(e.Decision)):
		return e, invalid("unknown audit decision %q", e.Decision)
	case !chat.ValidDecidedBy(e.DecidedBy):
		return e, invalid("unknown decider %q", e.DecidedBy)
	case e.At < 0 || e.DurationMs < 0 || e.RuleID < 0:
		return e, invalid("an audit row's times and rule id cannot be negative")
	}
	if e.UID == "" {
		e.UID = chat.NewID()
	}
	if e.At == 0 {
		e.At = chat.Now()
	}
	e.Arguments = chat.BoundJSON(e.Arguments, chat.MaxAuditJSON)
	e.RunArguments = chat.BoundJSON(e.RunArguments, chat.MaxAuditJSON)
	e.Preview = chat.BoundJSON(e.Preview, chat.MaxAuditJSON)
	e.Detail = clipText(e.Detail, chat.MaxAuditDetail)
	e.Rule = clipText(e.Rule, 1024)
	e.Tool = clipText(e.Tool, 512)
	return e, nil
}

func clipText(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

const insertAudit = `INSERT INTO audit (uid, chat_id, call_id, message_id, tool, decision, decided_by, rule_id, rule, detail, at,
	arguments, run_arguments, preview, result_status, duration_ms, imported) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (uid) DO NOTHING`

func auditValues(e chat.AuditEntry) []any {
	return []any{e.UID, e.ChatID, e.CallID, e.MessageID, e.Tool, e.Decision, e.DecidedBy, e.RuleID, e.Rule, e.Detail, e.At,
		string(e.Arguments), string(e.RunArguments), string(e.Preview), e.ResultStatus, e.DurationMs, e.Imported}
}

// AddAudit appends a row to the trail.
func (s *Store) AddAudit(ctx context.Context, e chat.AuditEntry) (chat.AuditEntry, error) {
	e, err := cleanAudit(e)
	if err != nil {
		return e, err
	}
	res, err := s.exec(ctx, nil, insertAudit, auditValues(e)...)
	if err != nil {
		return e, wrap("add audit row", err)
	}
	e.ID, err = res.LastInsertId()
	return e, wrap("add audit row", err)
}

// AuditQuery chooses rows of the trail.
type AuditQuery struct {
	ChatID   string `json:"chatId"`   // "" for every chat
	CallID   string `json:"callId"`   // "" for every call
	Tool     string `json:"tool"`     // "" for every tool
	Decision string `json:"decision"` // "" for every decision
	// Before pages back: rows older than this id (0: from the newest).
	Before int64 `json:"before"`
	Limit  int   `json:"limit"` // 1..1000; 0 means 100
}

func (q AuditQuery) where() (string, []any) {
	var conds []string
	var args []any
	for _, f := range []struct{ col, v string }{{"chat_id", q.ChatID}, {"call_id", q.CallID}, {"tool", q.Tool}, {"decision", q.Decision}} {
		if f.v != "" {
			conds = append(conds, f.col+" = ?")
			args = append(args, f.v)
		}
	}
	if q.Before > 0 {
		// Rows are in time order (an imported chat's rows have newer ids
		// than their time): the page goes on after the row Before names.
		conds = append(conds, "(at, id) < (SELECT at, id FROM audit WHERE id = ?)")
		args = append(args, q.Before)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// ListAudit returns a page of the trail, newest first (by time).
func (s *Store) ListAudit(ctx context.Context, q AuditQuery) ([]chat.AuditEntry, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	limit = min(limit, 1000)
	where, args := q.where()
	rows, err := s.db.QueryContext(ctx, "SELECT "+auditColumns+" FROM audit"+where+" ORDER BY at DESC, id DESC LIMIT ?", append(args, limit)...)
	if err != nil {
		return nil, wrap("list audit", err)
	}
	defer rows.Close()
	out := []chat.AuditEntry{}
	for rows.Next() {
		e, err := scanAudit(rows)
		if err != nil {
			return nil, wrap("list audit", err)
		}
		out = append(out, e)
	}
	return out, wrap("list audit", rows.Err())
}

// EachAudit calls fn with every row the query chooses, oldest first (Before
// and Limit are ignored): the whole trail, for exports.
func (s *Store) EachAudit(ctx context.Context, q AuditQuery, fn func(chat.AuditEntry) error) error {
	q.Before = 0
	where, args := q.where()
	rows, err := s.db.QueryContext(ctx, "SELECT "+auditColumns+" FROM audit"+where+" ORDER BY at, id", args...)
	if err != nil {
		return wrap("read audit", err)
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanAudit(rows)
		if err != nil {
			return wrap("read audit", err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return wrap("read audit", rows.Err())
}

// chatAudit reads a chat's trail, oldest first (for an export).
func chatAudit(ctx context.Context, tx *sql.Tx, chatID string) ([]chat.AuditEntry, error) {
	rows, err := tx.QueryContext(ctx, "SELECT "+auditColumns+" FROM audit WHERE chat_id = ? ORDER BY at, id", chatID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []chat.AuditEntry{}
	for rows.Next() {
		e, err := scanAudit(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// importAudit adds the rows of an imported chat that are not here yet
// (matched by uid), oldest first so their ids keep their order. Each is
// marked imported, and must be about a call of this chat (on that call's
// message), or, with no call, name no message outside it.
func (s *Store) importAudit(ctx context.Context, tx *sql.Tx, chatID string, rows []chat.AuditEntry, r *ImportResult) error {
	for _, e := range rows {
		if e.ChatID != "" && e.ChatID != chatID {
			return invalid("audit row %s says it belongs to chat %q", e.UID, e.ChatID)
		}
		if strings.TrimSpace(e.UID) == "" {
			return invalid("an audit row has no id")
		}
		if e.CallID != "" {
			var msg string
			err := s.queryRow(ctx, tx, "SELECT message_id FROM tool_calls WHERE id = ? AND chat_id = ?", e.CallID, chatID).Scan(&msg)
			switch {
			case isNoRows(err):
				return invalid("audit row %s is about the tool call %q, which is not in this chat", e.UID, e.CallID)
			case err != nil:
				return err
			case e.MessageID != "" && e.MessageID != msg:
				return invalid("audit row %s says the call %q is on message %q; it is on %q", e.UID, e.CallID, e.MessageID, msg)
			}
		} else if e.MessageID != "" {
			if err := s.checkInChat(ctx, tx, e.MessageID, chatID); err != nil {
				return fmt.Errorf("audit row %s: %w", e.UID, err)
			}
		}
		e.ChatID, e.Imported = chatID, true
		e, err := cleanAudit(e)
		if err != nil {
			return err
		}
		res, err := s.exec(ctx, tx, insertAudit, auditValues(e)...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			r.AuditAdded++
		} else {
			r.AuditSkipped++
		}
	}
	return nil
}

// auditInterrupted records, before InterruptRunningCalls marks them, the
// calls that were running when Airlock last stopped.
func (s *Store) auditInterrupted(ctx context.Context, tx *sql.Tx, now int64) error {
	calls, err := queryCalls(ctx, tx, "SELECT "+callColumns+" FROM tool_calls WHERE state IN ('running', 'approved')")
	if err != nil {
		return err
	}
	for _, c := range calls {
		e := chat.AuditEntry{ChatID: c.ChatID, CallID: c.ID, MessageID: c.MessageID, Tool: c.Name,
			Decision: chat.AuditInterrupted, DecidedBy: chat.ByInterrupted, At: now,
			Detail:    "Airlock stopped while this call was running; it was not finished.",
			Arguments: c.Arguments, RunArguments: c.EffectiveArguments()}
		if c.StartedAt > 0 && now > c.StartedAt {
			e.DurationMs = now - c.StartedAt
		}
		if e, err = cleanAudit(e); err != nil {
			return err
		}
		if _, err := s.exec(ctx, tx, insertAudit, auditValues(e)...); err != nil {
			return err
		}
	}
	return nil
}
