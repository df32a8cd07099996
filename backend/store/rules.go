package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"airlock/backend/chat"
)

// Rules: always-allow and never-allow decisions (package approval makes and
// matches them). "call" and "session" rules belong to this run of Airlock
// (the store's session id): no other run sees them, and PurgeRules deletes
// them at the next start.

const ruleColumns = `id, effect, tool, match_kind, match_path, match_arg, match_value, scope, coalesce(chat_id, ''),
	coalesce(message_id, ''), expires_at, message, from_call, created_at, uses, last_used_at, tool_server, tool_remote`

func scanRule(r scanner) (chat.Rule, error) {
	var x chat.Rule
	var value string
	err := r.Scan(&x.ID, &x.Effect, &x.Tool, &x.Match.Kind, &x.Match.Path, &x.Match.Arg, &value, &x.Scope, &x.ChatID,
		&x.MessageID, &x.ExpiresAt, &x.Message, &x.FromCall, &x.CreatedAt, &x.Uses, &x.LastUsedAt, &x.ToolServer, &x.ToolRemote)
	x.Match.Value = rawOrNil(value)
	if x.Match.Kind == chat.MatchAny && x.ToolServer != "" && x.ToolRemote == "" {
		x.Match.Kind = chat.MatchReadOnly
	}
	return x, err
}

// kindColumn is a rule's match_kind as stored. The column's CHECK (0008)
// knows any, path and exact; a rule on a server's read-only tools
// (chat.MatchReadOnly) is stored as 'any' with tool_server set and
// tool_remote empty, a pair no other rule has (a rule on one MCP tool has
// both, Airlock's tools and globs neither), and read back as readonly.
func kindColumn(r chat.Rule) chat.MatchKind {
	if r.Match.Kind == chat.MatchReadOnly {
		return chat.MatchAny
	}
	return r.Match.Kind
}

// sessionOf is the session a rule of this scope is kept under.
func (s *Store) sessionOf(scope chat.RuleScope) string {
	if scope.Transient() {
		return s.session
	}
	return ""
}

// AddRule stores a rule (made by approval.NewRule). Adding a rule the
// store already holds, the same in every respect, returns that one; an
// hour rule is always new (a fresh hour).
func (s *Store) AddRule(ctx context.Context, r chat.Rule) (chat.Rule, error) {
	r.Tool = strings.TrimSpace(r.Tool)
	switch {
	case r.Tool == "":
		return r, invalid("a rule needs a tool name")
	case r.Effect != chat.RuleAllow && r.Effect != chat.RuleDeny:
		return r, invalid("a rule allows or denies, not %q", r.Effect)
	case r.Match.Value != nil && !json.Valid(r.Match.Value):
		return r, invalid("the rule's value is not JSON")
	case (r.Match.Kind == chat.MatchReadOnly) != (r.ToolServer != "" && r.ToolRemote == ""):
		return r, invalid("a rule on a server's read-only tools names the server and no tool")
	}
	if r.CreatedAt == 0 {
		r.CreatedAt = chat.Now()
	}
	session := s.sessionOf(r.Scope)
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		if r.Scope != chat.ScopeHour {
			found, err := scanRule(tx.QueryRowContext(ctx, "SELECT "+ruleColumns+` FROM rules
				WHERE effect = ? AND tool = ? AND match_kind = ? AND match_path = ? AND match_arg = ? AND match_value = ?
				AND scope = ? AND coalesce(chat_id, '') = ? AND coalesce(message_id, '') = ? AND session_id = ? AND message = ?
				AND tool_server = ? AND tool_remote = ?`,
				r.Effect, r.Tool, kindColumn(r), r.Match.Path, r.Match.Arg, string(r.Match.Value), r.Scope, r.ChatID,
				r.MessageID, session, r.Message, r.ToolServer, r.ToolRemote))
			if err == nil {
				r = found
				return nil
			}
			if !isNoRows(err) {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO rules (effect, tool, match_kind, match_path, match_arg, match_value,
			scope, chat_id, message_id, session_id, expires_at, message, from_call, created_at, tool_server, tool_remote)
			VALUES (?, ?, ?, ?, ?, ?, ?, nullif(?, ''), nullif(?, ''), ?, ?, ?, ?, ?, ?, ?)`,
			r.Effect, r.Tool, kindColumn(r), r.Match.Path, r.Match.Arg, string(r.Match.Value), r.Scope, r.ChatID,
			r.MessageID, session, r.ExpiresAt, r.Message, r.FromCall, r.CreatedAt, r.ToolServer, r.ToolRemote)
		if err != nil {
			return err
		}
		r.ID, err = res.LastInsertId()
		r.Uses, r.LastUsedAt = 0, 0
		return err
	})
	return r, wrap("add rule", err)
}

// GetRule returns one rule.
func (s *Store) GetRule(ctx context.Context, id int64) (chat.Rule, error) {
	r, err := scanRule(s.db.QueryRowContext(ctx, "SELECT "+ruleColumns+" FROM rules WHERE id = ?", id))
	if isNoRows(err) {
		return r, chat.Errorf("not_found", chat.ErrNotFound, "rule %d not found", id)
	}
	return r, wrap("get rule", err)
}

// ListRules returns the rules that hold in this run, oldest first: not
// expired, and of the transient ones only this run's.
func (s *Store) ListRules(ctx context.Context) ([]chat.Rule, error) {
	rules, err := s.queryRules(ctx, "SELECT "+ruleColumns+` FROM rules
		WHERE (session_id = '' OR session_id = ?) AND (expires_at = 0 OR expires_at > ?) ORDER BY id`, s.session, chat.Now())
	return rules, wrap("list rules", err)
}

// RulesFor returns the rules that may apply to a chat's calls: every
// chat's and this chat's, the transient ones of this run only. Expiry is
// left to the caller's clock (approval.Active).
func (s *Store) RulesFor(ctx context.Context, chatID string) ([]chat.Rule, error) {
	rules, err := s.queryRules(ctx, "SELECT "+ruleColumns+` FROM rules
		WHERE (chat_id IS NULL OR chat_id = ?) AND (session_id = '' OR session_id = ?) ORDER BY id`, chatID, s.session)
	return rules, wrap("list rules", err)
}

func (s *Store) queryRules(ctx context.Context, query string, args ...any) ([]chat.Rule, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	rules := []chat.Rule{}
	for rows.Next() {
		r, err := scanRule(rows)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, rows.Err()
}

// DeleteRule revokes a rule.
func (s *Store) DeleteRule(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM rules WHERE id = ?", id)
	if err == nil {
		if n, _ := res.RowsAffected(); n == 0 {
			return chat.Errorf("not_found", chat.ErrNotFound, "rule %d not found", id)
		}
	}
	return wrap("delete rule", err)
}

// RuleUsed counts a call a rule decided, at a time.
func (s *Store) RuleUsed(ctx context.Context, id, at int64) error {
	_, err := s.db.ExecContext(ctx, "UPDATE rules SET uses = uses + 1, last_used_at = max(last_used_at, ?) WHERE id = ?", at, id)
	return wrap("count rule use", err)
}

// PurgeRules deletes the rules that can no longer hold: the transient
// rules of other runs and the hour rules that ended before now. The app
// calls it at start-up.
func (s *Store) PurgeRules(ctx context.Context, now int64) (int, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM rules WHERE (session_id <> '' AND session_id <> ?)
		OR (expires_at <> 0 AND expires_at <= ?)`, s.session, now)
	if err != nil {
		return 0, wrap("purge rules", err)
	}
	n, err := res.RowsAffected()
	return int(n), wrap("purge rules", err)
}
