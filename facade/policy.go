package facade

import (
	"encoding/json"
	"sort"
	"strings"

	"airlock/backend/approval"
	"airlock/backend/chat"
	"airlock/backend/engine"
	"airlock/backend/store"
)

// Rules and the audit trail: what may run without asking, what never may,
// and every decision made. The logic is in backend/approval and the
// engine; these are the UI's doors to it.

// --- rules ---------------------------------------------------------------------

// ListRules lists the rules that hold now (with their uses, when they last
// decided, and when an hour rule ends), oldest first.
func (a *App) ListRules() ([]chat.Rule, error) { return result(a.store.ListRules(a.ctx)) }

// DeleteRule revokes a rule.
func (a *App) DeleteRule(id int64) error {
	err := a.store.DeleteRule(a.ctx, id)
	if err == nil {
		a.emit(eventRulesChanged, nil)
	}
	return toAPI(err)
}

// eventRulesChanged tells the UI that the rules changed (added, revoked).
const eventRulesChanged = "rules:changed"

// AlwaysAllowCall is the card's shortcut: allow the call's tool for any
// arguments in this chat (or everywhere, always), and run the call.
func (a *App) AlwaysAllowCall(callID string, everywhere bool) (chat.Call, error) {
	c, err := a.engine.AlwaysAllow(a.ctx, callID, everywhere)
	if err == nil {
		a.emit(eventRulesChanged, nil)
	}
	return result(c, err)
}

// RuleAdded is a rule made from a card, and the card afterwards (run or
// denied by it when the rule covers it).
type RuleAdded struct {
	Rule chat.Rule `json:"rule"`
	Call chat.Call `json:"call"`
}

// AddRuleFromCall makes a rule from a card and applies it at once to the
// card and the waiting calls of its answer.
func (a *App) AddRuleFromCall(callID string, d approval.Draft) (RuleAdded, error) {
	r, c, err := a.engine.AddRuleFromCall(a.ctx, callID, d)
	if err != nil {
		return RuleAdded{}, toAPI(err)
	}
	a.emit(eventRulesChanged, nil)
	return RuleAdded{Rule: r, Call: c}, nil
}

// AddRule makes a rule without a card (Settings → Permissions): the
// draft names the tool (or a glob such as mcp__git__*), and for a chat
// rule the chat. It applies to calls from now on.
func (a *App) AddRule(d approval.Draft) (chat.Rule, error) {
	box := a.tools.All()
	r, err := approval.NewRule(d, nil, engine.ToolsOf(box), chat.Now())
	if err != nil {
		return r, toAPI(err)
	}
	if r.ChatID != "" {
		if _, err := a.store.GetChat(a.ctx, r.ChatID); err != nil {
			return r, toAPI(err)
		}
	}
	if r, err = a.store.AddRule(a.ctx, r); err == nil {
		a.emit(eventRulesChanged, nil)
	}
	return result(r, err)
}

// ArgOption is an argument of a card's call, for a rule on its exact value.
type ArgOption struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
	Path  bool            `json:"path"` // a workspace path (compared as a clean path)
}

// RuleOptions is what a card can offer to make a rule of.
type RuleOptions struct {
	Tool string `json:"tool"`
	// Folder is the folder a path rule offers ("docs" for read_file
	// docs/a.md); "" when the tool takes no workspace paths.
	Folder   string           `json:"folder"`
	PathArgs []string         `json:"pathArgs"`
	Args     []ArgOption      `json:"args"`
	Scopes   []chat.RuleScope `json:"scopes"`
	// Covering are the rules that cover this call now (allow and never).
	Covering []chat.Rule `json:"covering"`
}

// RuleOptions says what rules a card can make: the folder to offer, the
// arguments for an exact value, the scopes, and the rules already covering
// the call.
func (a *App) RuleOptions(callID string) (RuleOptions, error) {
	c, err := a.store.GetCall(a.ctx, callID)
	if err != nil {
		return RuleOptions{}, toAPI(err)
	}
	ch, err := a.store.GetChat(a.ctx, c.ChatID)
	if err != nil {
		return RuleOptions{}, toAPI(err)
	}
	o := RuleOptions{Tool: c.Name, PathArgs: []string{}, Args: []ArgOption{}, Scopes: chat.Scopes, Covering: []chat.Rule{}}
	box := a.tools.For(ch.MCPServers)
	t, _ := box.Get(c.Name)
	if len(t.PathArgs) > 0 {
		o.PathArgs = t.PathArgs
		o.Folder = approval.SuggestFolder(c, t.PathArgs)
	}
	var args map[string]json.RawMessage
	_ = json.Unmarshal(c.Arguments, &args)
	for name, v := range args {
		isPath := false
		for _, p := range t.PathArgs {
			isPath = isPath || p == name
		}
		o.Args = append(o.Args, ArgOption{Name: name, Value: v, Path: isPath})
	}
	sort.Slice(o.Args, func(i, j int) bool { return o.Args[i].Name < o.Args[j].Name })
	rules, err := a.store.RulesFor(a.ctx, c.ChatID)
	if err != nil {
		return o, toAPI(err)
	}
	env, envErr := a.envFor(a.ctx, c.ChatID)
	s := engine.Subjects(box, env, envErr)(c)
	now := chat.Now()
	for _, r := range rules {
		if approval.Active(r, c, now) && approval.Matches(r, s) {
			o.Covering = append(o.Covering, r)
		}
	}
	return o, nil
}

// RuleTest is what a draft rule would have done in a chat.
type RuleTest struct {
	Rule        chat.Rule    `json:"rule"`    // the rule as it would be saved (id 0)
	Description string       `json:"summary"` // it, in one line
	Matched     []TestedCall `json:"matched"` // the calls it would have allowed (a never rule: denied), oldest first
	Total       int          `json:"total"`   // calls of the chat looked at
}

// TestedCall is a past call a draft rule covers.
type TestedCall struct {
	ID        string          `json:"id"`
	MessageID string          `json:"messageId"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	State     chat.CallState  `json:"state"`
	DecidedBy string          `json:"decidedBy,omitempty"`
	CreatedAt int64           `json:"createdAt"`
}

// TestRule tries a draft rule made from a card on a chat's past calls
// (chatID "": the card's chat) before it is saved.
func (a *App) TestRule(callID string, d approval.Draft, chatID string) (RuleTest, error) {
	r, matched, total, err := a.engine.TestRule(a.ctx, callID, d, chatID)
	if err != nil {
		return RuleTest{}, toAPI(err)
	}
	t := RuleTest{Rule: r, Description: approval.Describe(r), Matched: []TestedCall{}, Total: total}
	for _, c := range matched {
		t.Matched = append(t.Matched, TestedCall{ID: c.ID, MessageID: c.MessageID, Name: c.Name, Arguments: c.Arguments,
			State: c.State, DecidedBy: c.DecidedBy, CreatedAt: c.CreatedAt})
	}
	return t, nil
}

// --- the audit trail -------------------------------------------------------------

// AuditPage is a page of the trail, newest first; Next pages on (0: the end).
type AuditPage struct {
	Entries []chat.AuditEntry `json:"entries"`
	Next    int64             `json:"next"`
}

// ListAudit reads the trail of a chat (or, chatId "", of every chat),
// filtered by tool and decision, a page at a time: pass the page's Next as
// the query's before for the one after.
func (a *App) ListAudit(q store.AuditQuery) (AuditPage, error) {
	if q.Limit <= 0 || q.Limit > 500 {
		q.Limit = 100
	}
	entries, err := a.store.ListAudit(a.ctx, q)
	if err != nil {
		return AuditPage{}, toAPI(err)
	}
	p := AuditPage{Entries: entries}
	if len(entries) == q.Limit {
		p.Next = entries[len(entries)-1].ID
	}
	return p, nil
}

// ExportAudit writes the trail the Activity view shows (its chat, "" for
// every chat, and its tool and decision filters), oldest first, as "jsonl"
// or "csv" (which names each chat by its title too), to a file chosen in
// the native save dialog. It returns the path written, or "" when the user
// cancelled.
func (a *App) ExportAudit(q store.AuditQuery, format string) (string, error) {
	data, name, err := a.activityExport(q, format)
	if err != nil {
		return "", toAPI(err)
	}
	return a.saveAs("Export activity", name, strings.ToLower(format), data)
}
