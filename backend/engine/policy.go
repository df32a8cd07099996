package engine

import (
	"context"

	"airlock/backend/approval"
	"airlock/backend/chat"
	"airlock/backend/tools"
)

// Rules in the loop: when an answer's calls are stored, the rules decide
// which run by themselves and which are never allowed (package approval);
// a rule made from a card applies at once to the calls of its answer.

// Subjects tells rules how to read a chat's calls: the tool's path
// arguments, and the workspace's links. When the workspace cannot be
// opened, no path can be resolved, so no rule on folders allows anything.
func Subjects(box *tools.Toolbox, env tools.Env, envErr error) func(chat.Call) approval.Subject {
	return func(c chat.Call) approval.Subject {
		s := approval.Subject{Call: c}
		if t, ok := box.Get(c.Name); ok {
			s.PathArgs, s.Server, s.Remote, s.ReadOnly = t.PathArgs, t.Server, t.Remote, ReadOnlySafe(t)
			s.Hints = t.Hints // the server's claims in its current list
		}
		switch {
		case envErr != nil:
			s.Resolve = func(string) (string, error) { return "", envErr }
		case env.Resolve != nil:
			s.Resolve = env.Resolve
		}
		return s
	}
}

// ToolsOf tells rules about a toolbox's tools, finding a name as the
// scanner does (tools.Registry.Lookup).
func ToolsOf(box *tools.Toolbox) approval.ToolsOf {
	return func(name string) (approval.ToolInfo, bool) {
		spec, ok := box.Registry().Lookup(name)
		if !ok {
			return approval.ToolInfo{}, false
		}
		t, ok := box.Get(spec.Name)
		return approval.ToolInfo{Name: spec.Name, PathArgs: t.PathArgs, Server: t.Server, Remote: t.Remote}, ok
	}
}

// applyRules decides the new calls of an answer by the rules and the
// chat's agent's approval defaults: a never rule denies, an allow rule (or
// the agent's "reads" default) runs, the loop guard and the turn cap (and
// an agent that asks every time) hold an allowed call for a person.
// previous are the chat's calls before these. Callers hold e.decide.
func (e *Engine) applyRules(ctx context.Context, chatID string, box *tools.Toolbox, subject func(chat.Call) approval.Subject,
	previous, stored []chat.Call) {
	rules, err := e.store.RulesFor(ctx, chatID)
	agent := e.agentOfChat(ctx, chatID)
	if err != nil || (len(rules) == 0 && agent.Approval != chat.ApprovalReads) {
		return
	}
	turn, maxTurns := e.turnOf(ctx, chatID)
	now := chat.Now()
	for _, cl := range stored {
		d := approval.Decide(approval.Input{Rules: rules, Previous: previous, Subject: subject(cl), Turn: turn, MaxTurns: maxTurns, Now: now, Agent: agent})
		previous = append(previous, cl)
		switch d.Verdict {
		case approval.Deny:
			_ = e.denyByRule(ctx, cl, d.Rule)
		case approval.Allow:
			if e.approveLocked(ctx, cl, nil, d.Decider()) == nil && d.Rule.ID != 0 {
				e.used(ctx, d.Rule)
			}
		case approval.Held:
			cl.Guard = d.Guard
			n := note{by: d.By, detail: d.Guard}
			if d.Rule.ID != 0 {
				n.rule = &d.Rule
			}
			if e.save(cl) == nil {
				e.record(ctx, cl, chat.AuditHeld, n)
			}
		}
	}
}

// turnOf is the chat's latest answer's number since the user wrote, and
// the turn cap.
func (e *Engine) turnOf(ctx context.Context, chatID string) (turn, maxTurns int) {
	maxTurns = e.agentOfChat(ctx, chatID).MaxTurns
	history, err := e.store.ListMessages(ctx, chatID)
	if err != nil {
		return 0, maxTurns
	}
	return turnsSinceUser(history), maxTurns
}

// denyByRule settles a call a never rule covers: the model is told the
// rule's message.
func (e *Engine) denyByRule(ctx context.Context, c chat.Call, r chat.Rule) error {
	err := e.denyAs(ctx, c, chat.AuditDenied, note{by: r.By(), rule: &r, detail: r.Message}, r.Message, approval.NeverText(r))
	if err == nil {
		e.used(ctx, r)
	}
	return err
}

// AddRuleFromCall makes a rule from a card (approval.NewRule), stores it,
// and applies it at once: to the card, when the rule covers it and it
// waits for a decision, and to the calls of the same answer that wait
// (not those the loop guard or turn cap hold). An allow rule runs them, a
// never rule denies them; either way they count as decided by the rule.
// It returns the rule and the card as stored afterwards.
func (e *Engine) AddRuleFromCall(ctx context.Context, callID string, d approval.Draft) (chat.Rule, chat.Call, error) {
	var rule chat.Rule
	c, err := e.decideOn(ctx, callID, func(c chat.Call) error {
		if c.State == chat.CallProblem {
			return refuse("bad_state", chat.ErrInvalid, txtProblemNoRule)
		}
		box := e.toolsOf(ctx, c.ChatID)
		r, err := approval.NewRule(d, &c, ToolsOf(box), chat.Now())
		if err != nil {
			return err
		}
		if rule, err = e.store.AddRule(ctx, r); err != nil {
			return err
		}
		siblings, err := e.store.MessageCalls(ctx, c.MessageID)
		if err != nil {
			return err
		}
		env, envErr := e.envFor(ctx, c.ChatID)
		subject := Subjects(box, env, envErr)
		now := chat.Now()
		for _, s := range siblings {
			card := s.ID == c.ID
			waiting := s.State == chat.CallPending || (card && s.State == chat.CallInterrupted)
			if !waiting || (!card && s.Guard != "") || !approval.Active(rule, s, now) || !approval.Matches(rule, subject(s)) {
				continue
			}
			if rule.Effect == chat.RuleDeny {
				err = e.denyByRule(ctx, s, rule)
			} else if err = e.approveLocked(ctx, s, nil, rule.By()); err == nil {
				e.used(ctx, rule)
			}
			if err != nil && card {
				return err
			}
		}
		return nil
	})
	if err == nil {
		rule, _ = e.store.GetRule(ctx, rule.ID) // with its uses
	}
	return rule, c, err
}

// AlwaysAllow is the card's shortcut: allow the call's tool for any
// arguments, in this chat or (everywhere) always, and run the call and
// the answer's other waiting calls of that tool.
func (e *Engine) AlwaysAllow(ctx context.Context, callID string, everywhere bool) (chat.Call, error) {
	scope := chat.ScopeChat
	if everywhere {
		scope = chat.ScopeAlways
	}
	_, c, err := e.AddRuleFromCall(ctx, callID, approval.Draft{Effect: chat.RuleAllow, Match: chat.MatchAny, Scope: scope})
	return c, err
}

// TestRule says which calls of a chat a draft rule, made from a card,
// would have covered (allowed, or for a never rule denied), out of how
// many, and the rule as it would be saved. chatID "" tests it on the
// card's own chat.
func (e *Engine) TestRule(ctx context.Context, callID string, d approval.Draft, chatID string) (r chat.Rule, matched []chat.Call, total int, err error) {
	from, err := e.store.GetCall(ctx, callID)
	if err != nil {
		return r, nil, 0, err
	}
	asked := chatID != "" // a chat to try it on; otherwise its own, or (a rule for every chat) all of them
	if chatID == "" {
		chatID = from.ChatID
	}
	box := e.toolsOf(ctx, chatID)
	if r, err = approval.NewRule(d, &from, ToolsOf(box), chat.Now()); err != nil {
		return r, nil, 0, err
	}
	tried := r
	if tried.Scope == chat.ScopeChat && tried.ChatID == from.ChatID {
		tried.ChatID = chatID // "this chat": the chat it is tried on
	}
	if r.ChatID == "" && !asked {
		err = e.testEverywhere(ctx, r, &matched, &total)
		return r, matched, total, err
	}
	calls, err := e.store.ListCalls(ctx, chatID)
	if err != nil {
		return r, nil, 0, err
	}
	env, envErr := e.envFor(ctx, chatID)
	return r, approval.Test(tried, calls, Subjects(box, env, envErr)), len(calls), nil
}

// TestRuleMaxCalls caps the calls a rule for every chat is tried on (the
// newest chats first): a test never reads a whole long history.
const TestRuleMaxCalls = 5000

// testEverywhere tries a rule that holds in every chat on the calls of
// every chat, newest chats first, up to TestRuleMaxCalls.
func (e *Engine) testEverywhere(ctx context.Context, r chat.Rule, matched *[]chat.Call, total *int) error {
	chats, err := e.store.ListChats(ctx)
	if err != nil {
		return err
	}
	for _, c := range chats {
		if *total >= TestRuleMaxCalls {
			break
		}
		calls, err := e.store.ListCalls(ctx, c.ID)
		if err != nil {
			return err
		}
		if len(calls) == 0 {
			continue
		}
		calls = calls[max(0, len(calls)-(TestRuleMaxCalls-*total)):]
		box := e.toolsOf(ctx, c.ID)
		env, envErr := e.envFor(ctx, c.ID)
		*matched = append(*matched, approval.Test(r, calls, Subjects(box, env, envErr))...)
		*total += len(calls)
	}
	return nil
}
