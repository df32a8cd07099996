package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"sort"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

const callColumns = `id, model_call_id, chat_id, message_id, idx, name, arguments, edited, raw, format, state,
	problem, guard, decided_by, decided_at, reason, result, result_status, truncated, started_at, finished_at,
	preview, created_at, updated_at, result_images, result_structured, repaired, result_text`

func scanCall(r scanner) (chat.Call, error) {
	var c chat.Call
	var args, edited, preview, images, structured, text string
	err := r.Scan(&c.ID, &c.ModelCallID, &c.ChatID, &c.MessageID, &c.Index, &c.Name, &args, &edited, &c.Raw,
		&c.Format, &c.State, &c.Problem, &c.Guard, &c.DecidedBy, &c.DecidedAt, &c.Reason, &c.Result,
		&c.ResultState, &c.Truncated, &c.StartedAt, &c.FinishedAt, &preview, &c.CreatedAt, &c.UpdatedAt, &images, &structured, &c.Repaired, &text)
	c.Arguments = rawOrNil(args)
	c.AmbiguousKeys = chat.AmbiguousKeys(c.Arguments)
	c.Edited = rawOrNil(edited)
	c.Preview = rawOrNil(preview)
	c.Structured = rawOrNil(structured)
	c.ResultText = textOf(text)
	if c.State == chat.CallProblem { // result_text holds the problem's sentence (callText)
		c.ProblemText = c.ResultText
		if c.ResultState == "" {
			c.ResultText = nil
		}
	}
	if images != "" {
		_ = json.Unmarshal([]byte(images), &c.Images) // written by imagesJSON: a bad value only loses the pictures
	}
	return c, err
}

func rawOrNil(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return json.RawMessage(s)
}

func callValues(c chat.Call) []any {
	args := string(c.Arguments)
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	return []any{c.ID, c.ModelCallID, c.ChatID, c.MessageID, c.Index, c.Name, args, string(c.Edited), c.Raw,
		c.Format, c.State, c.Problem, c.Guard, c.DecidedBy, c.DecidedAt, c.Reason, c.Result,
		c.ResultState, c.Truncated, c.StartedAt, c.FinishedAt, string(c.Preview), c.CreatedAt, c.UpdatedAt,
		imagesJSON(c.Images), string(c.Structured), c.Repaired, textJSON(callText(c)), callCJK(c)}
}

// callText is what result_text holds: the result's sentence, or on a
// problem card the problem's (its result, once told to the model, is the
// problem): no column of its own is needed.
func callText(c chat.Call) *uitext.Text {
	if c.State == chat.CallProblem && c.ResultText == nil {
		return c.ProblemText
	}
	return c.ResultText
}

// textJSON is a coded sentence column: JSON, empty when there is none.
func textJSON(t *uitext.Text) string {
	if t == nil || t.Code == "" {
		return ""
	}
	b, _ := json.Marshal(t)
	return string(b)
}

// textOf reads a textJSON column (a bad value only loses the translation).
func textOf(s string) *uitext.Text {
	if s == "" {
		return nil
	}
	var t uitext.Text
	if json.Unmarshal([]byte(s), &t) != nil || t.Code == "" {
		return nil
	}
	return &t
}

// textColumn scans a textJSON column into a *uitext.Text.
type textColumn struct{ dst **uitext.Text }

func (c textColumn) Scan(v any) error {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	}
	*c.dst = textOf(s)
	return nil
}

// imagesJSON is the result_images column, empty when there are none.
func imagesJSON(images []chat.Image) string {
	if len(images) == 0 {
		return ""
	}
	b, _ := json.Marshal(images)
	return string(b)
}

// callCJK is the cjk flag of the search index for a call.
func callCJK(c chat.Call) bool {
	return hasCJK(c.Name, string(c.Arguments), string(c.Edited), c.Result)
}

const insertCall = "INSERT INTO tool_calls (" + callColumns +
	", cjk) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// AddCalls stores the calls found in one assistant message, in one
// transaction: the UI never sees half of a message's cards.
// MaxCallsPerAdd bounds one AddCalls: whatever the engine lets through,
// one answer cannot write an unbounded number of rows in one transaction.
const MaxCallsPerAdd = 1000

func (s *Store) AddCalls(ctx context.Context, calls []chat.Call) ([]chat.Call, error) {
	if len(calls) > MaxCallsPerAdd {
		return nil, invalid("%d tool calls at once; the store takes at most %d (the engine keeps far fewer per answer)", len(calls), MaxCallsPerAdd)
	}
	now := chat.Now()
	out := make([]chat.Call, len(calls))
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		for i, c := range calls {
			if c.ID == "" {
				c.ID = chat.NewID()
			}
			if c.CreatedAt == 0 {
				c.CreatedAt = now
			}
			c.UpdatedAt = now
			c.AmbiguousKeys = chat.AmbiguousKeys(c.Arguments)
			if _, err := s.exec(ctx, tx, insertCall, callValues(c)...); err != nil {
				return err
			}
			out[i] = c
		}
		return nil
	})
	if err != nil {
		return nil, wrap("add tool calls", err)
	}
	return out, nil
}

// UpdateCall writes a call's whole state.
func (s *Store) UpdateCall(ctx context.Context, c chat.Call) error {
	if c.UpdatedAt == 0 {
		c.UpdatedAt = chat.Now()
	}
	res, err := s.exec(ctx, nil, `UPDATE tool_calls SET name = ?, arguments = ?, edited = ?, state = ?, problem = ?,
		guard = ?, decided_by = ?, decided_at = ?, reason = ?, result = ?, result_status = ?, truncated = ?,
		started_at = ?, finished_at = ?, preview = ?, updated_at = ?, result_images = ?, result_structured = ?, result_text = ?, cjk = ? WHERE id = ?`,
		c.Name, string(c.Arguments), string(c.Edited), c.State, c.Problem, c.Guard, c.DecidedBy, c.DecidedAt,
		c.Reason, c.Result, c.ResultState, c.Truncated, c.StartedAt, c.FinishedAt, string(c.Preview), c.UpdatedAt,
		imagesJSON(c.Images), string(c.Structured), textJSON(callText(c)), callCJK(c), c.ID)
	if err == nil {
		err = mustAffect(res, "tool call", c.ID)
	}
	return wrap("update tool call", err)
}

// GetCall returns one call.
func (s *Store) GetCall(ctx context.Context, id string) (chat.Call, error) {
	c, err := scanCall(s.db.QueryRowContext(ctx, "SELECT "+callColumns+" FROM tool_calls WHERE id = ?", id))
	if isNoRows(err) {
		return chat.Call{}, notFound("tool call", id)
	}
	return c, wrap("get tool call", err)
}

// ListCalls returns a chat's calls in the order they were proposed.
func (s *Store) ListCalls(ctx context.Context, chatID string) ([]chat.Call, error) {
	calls, err := queryCalls(ctx, s.db, "SELECT "+callColumns+" FROM tool_calls WHERE chat_id = ? ORDER BY created_at, message_id, idx", chatID)
	return calls, wrap("list tool calls", err)
}

// MessageCalls returns the calls of one assistant message, in order.
func (s *Store) MessageCalls(ctx context.Context, messageID string) ([]chat.Call, error) {
	calls, err := queryCalls(ctx, s.db, "SELECT "+callColumns+" FROM tool_calls WHERE message_id = ? ORDER BY idx", messageID)
	return calls, wrap("list tool calls", err)
}

// CallsOfMessages returns the calls of the given messages (a page of the
// conversation the UI shows), by message in the order given, then by index.
func (s *Store) CallsOfMessages(ctx context.Context, messageIDs []string) ([]chat.Call, error) {
	order := make(map[string]int, len(messageIDs))
	for i, id := range messageIDs {
		if _, ok := order[id]; !ok {
			order[id] = i
		}
	}
	calls := []chat.Call{}
	const batch = 500 // well under SQLite's limit on bound parameters
	for start := 0; start < len(messageIDs); start += batch {
		ids := messageIDs[start:min(start+batch, len(messageIDs))]
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		cs, err := queryCalls(ctx, s.db, "SELECT "+callColumns+" FROM tool_calls WHERE message_id IN (?"+
			strings.Repeat(", ?", len(ids)-1)+")", args...)
		if err != nil {
			return nil, wrap("list tool calls", err)
		}
		calls = append(calls, cs...)
	}
	sort.SliceStable(calls, func(i, j int) bool {
		a, b := calls[i], calls[j]
		if oa, ob := order[a.MessageID], order[b.MessageID]; oa != ob {
			return oa < ob
		}
		return a.Index < b.Index
	})
	return calls, nil
}

func queryCalls(ctx context.Context, q rowsQuerier, query string, args ...any) ([]chat.Call, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	calls := []chat.Call{}
	for rows.Next() {
		c, err := scanCall(rows)
		if err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	return calls, rows.Err()
}

// InterruptRunningCalls marks calls that were running when the app died.
// They are never re-run by themselves: the user decides again.
// Each gets a row in the audit trail.
func (s *Store) InterruptRunningCalls(ctx context.Context) (int, error) {
	var n int64
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		now := chat.Now()
		if err := s.auditInterrupted(ctx, tx, now); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE tool_calls SET state = 'interrupted', updated_at = ?,
			result = 'The app stopped while this call was running; it was not finished.'
			WHERE state IN ('running', 'approved')`, now)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), wrap("interrupt running tool calls", err)
}
