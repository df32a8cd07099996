package engine

import (
	"context"
	"fmt"
	"strings"

	"airlock/backend/approval"
	"airlock/backend/chat"
)

// The audit trail: every decision on a call, whoever made it, becomes a row
// (chat.AuditEntry) the moment it is stored; a run's outcome is a row too.

// note is what an audit row says beyond the call itself.
type note struct {
	by     string     // who decided (chat.ByUser, "rule:<id>", chat.ByLoopGuard, …)
	rule   *chat.Rule // the rule involved, when known (else looked up from by)
	detail string     // reason, message, guard, error
	runs   bool       // the call runs (or ran): its arguments as run are recorded
	status chat.ToolStatus
	ms     int64 // how long the run took
}

// record appends a row for a decision on c. A row that cannot be written is
// told to the user: the decision stands, but its trace is missing.
func (e *Engine) record(ctx context.Context, c chat.Call, d chat.AuditDecision, n note) {
	entry := chat.AuditEntry{ChatID: c.ChatID, CallID: c.ID, MessageID: c.MessageID, Tool: c.Name, Decision: d,
		DecidedBy: n.by, Detail: n.detail, At: chat.Now(), Arguments: c.Arguments, Preview: c.Preview,
		ResultStatus: n.status, DurationMs: n.ms}
	if n.runs {
		entry.RunArguments = c.EffectiveArguments()
	}
	if c.Repaired {
		// The trail says the call was repaired, whatever happened to it.
		entry.Detail = strings.TrimSpace(RepairedDetail + " " + entry.Detail)
	}
	if n.rule != nil {
		entry.RuleID, entry.Rule = n.rule.ID, approval.Describe(*n.rule)
	} else if id := chat.RuleID(n.by); id > 0 {
		entry.RuleID = id
		if r, err := e.store.GetRule(ctx, id); err == nil {
			entry.Rule = approval.Describe(r)
		} else {
			entry.Rule = fmt.Sprintf("rule %d (revoked)", id)
		}
	} else if id := chat.AgentID(n.by); id != "" {
		// The agent's approval default decided: the trail names it as it read then.
		a, err := e.store.GetAgent(ctx, id)
		if err != nil {
			a = chat.Agent{ID: id, Name: id + " (deleted)"}
		}
		entry.Rule = approval.AgentGrantText(a)
	}
	if _, err := e.store.AddAudit(ctx, entry); err != nil {
		e.notice(c.ChatID, "audit", txtAuditFailed.With("tool", c.Name, "reason", err.Error()))
	}
}

// RepairedDetail opens the trail's detail of a repaired call.
const RepairedDetail = "Repaired: closers added (the message ended without them)."

// used credits a rule with a call it decided.
func (e *Engine) used(ctx context.Context, r chat.Rule) {
	_ = e.store.RuleUsed(ctx, r.ID, chat.Now())
}

// approvalKind is what an approval of c is in the trail: a fix of a problem
// card, a run with edited arguments, or a run as proposed.
func approvalKind(c chat.Call, fixing bool) chat.AuditDecision {
	switch {
	case fixing:
		return chat.AuditFixed
	case len(c.Edited) > 0:
		return chat.AuditEdited
	}
	return chat.AuditApproved
}

// outcomeKind is what the end of a run is in the trail.
func outcomeKind(interrupted, cancelled, timedOut bool, by string) (chat.AuditDecision, string) {
	switch {
	case interrupted:
		return chat.AuditInterrupted, chat.ByInterrupted
	case cancelled:
		return chat.AuditCancelled, chat.ByUser
	case timedOut:
		return chat.AuditTimedOut, chat.ByTimeout
	}
	return chat.AuditRan, by
}
