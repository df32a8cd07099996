package approval

import (
	"fmt"
	"slices"

	"airlock/backend/chat"
)

// Verdict is what the rules make of a pending call.
type Verdict string

const (
	Ask   Verdict = "ask"   // a person decides
	Allow Verdict = "allow" // runs by Rule
	Deny  Verdict = "deny"  // denied by Rule; the model is told NeverText
	Held  Verdict = "held"  // Rule allows it, but By (loop guard, turn cap) makes it wait: Guard says why
)

// Decision is the verdict on one call.
type Decision struct {
	Verdict Verdict
	Rule    chat.Rule // the rule that decided (for Held: the allow rule overridden); zero when the agent did
	// By: for Held, chat.ByLoopGuard, chat.ByTurnCap, chat.ByRepaired or
	// the agent ("agent:<id>", its "ask" default); for Allow, the agent
	// when its "reads" default ran the call (else the rule decided).
	By    string
	Guard string // for Held: why, for the card
}

// Decider is who decided an Allow or Deny: "rule:<id>", or the agent.
func (d Decision) Decider() string {
	if d.Rule.ID == 0 && d.By != "" {
		return d.By
	}
	return d.Rule.By()
}

// Input is what a decision is made from.
type Input struct {
	Rules []chat.Rule
	// Previous are the chat's earlier calls, oldest first (the loop guard).
	Previous []chat.Call
	Subject  Subject
	// Turn is the answer's number since the user last wrote (1 for the
	// first); MaxTurns the turn cap (0: none). An answer past the cap
	// (after Continue) runs nothing by rule.
	Turn, MaxTurns int
	Now            int64
	// Agent is the chat's agent: its approval defaults (Approval) narrow
	// the rules or run read-only calls; the zero value leaves the rules alone.
	Agent chat.Agent
}

// Decide applies the rules to a pending call. Precedence: a never rule
// beats everything; then an allow rule the agent lets apply (under "ask",
// one for every chat holds the call for a person instead); then the
// agent's "reads" default; a repaired call (its closers added by
// Airlock), the loop guard, then the turn cap, stop an allowed call; with
// nothing allowing it a person decides. Among several rules that match,
// the narrowest scope decides (then the oldest rule).
func Decide(in Input) Decision {
	c := in.Subject.Call
	if c.State != chat.CallPending {
		return Decision{Verdict: Ask}
	}
	deny, okDeny := pick(in.Rules, chat.RuleDeny, in.Subject, in.Now)
	if okDeny {
		return Decision{Verdict: Deny, Rule: deny}
	}
	rules, setAside := forAgent(in.Rules, in.Agent)
	allowed := Decision{Verdict: Allow}
	if allow, ok := pick(rules, chat.RuleAllow, in.Subject, in.Now); ok {
		allowed.Rule = allow
	} else if global, ok := pick(setAside, chat.RuleAllow, in.Subject, in.Now); ok {
		return Decision{Verdict: Held, Rule: global, By: in.Agent.By(), Guard: AskEveryTimeText(in.Agent, global)}
	} else if grants(in.Agent, in.Subject) {
		allowed.By = in.Agent.By()
	} else {
		return Decision{Verdict: Ask}
	}
	held := func(by, guard string) Decision {
		return Decision{Verdict: Held, Rule: allowed.Rule, By: by, Guard: guard}
	}
	switch g := LoopGuard(in.Previous, c); {
	case c.Repaired:
		return held(chat.ByRepaired, RepairedText)
	case g != "":
		return held(chat.ByLoopGuard, g)
	case in.MaxTurns > 0 && in.Turn > in.MaxTurns:
		return held(chat.ByTurnCap, TurnCapText(in.Turn, in.MaxTurns))
	}
	return allowed
}

// RepairedText says why a repaired call a rule allows waits.
const RepairedText = "Repaired: the model's message ended without this call's closing brackets or tags, and Airlock added them. Check the arguments: a repaired call waits for you even if a rule allows it."

// Recheck decides again, just before it runs, a call a rule (or the
// agent's "reads" default) allowed: an earlier call of the answer may have
// changed the workspace since (moved a link into an allowed folder). A
// never rule covering it now denies it; with nothing allowing it any more,
// a person decides (Ask). The loop guard and the turn cap had their say
// when it was first decided.
func Recheck(rules []chat.Rule, a chat.Agent, s Subject, now int64) Decision {
	if deny, ok := pick(rules, chat.RuleDeny, s, now); ok {
		return Decision{Verdict: Deny, Rule: deny}
	}
	rules, _ = forAgent(rules, a)
	if allow, ok := pick(rules, chat.RuleAllow, s, now); ok {
		return Decision{Verdict: Allow, Rule: allow}
	}
	if grants(a, s) {
		return Decision{Verdict: Allow, By: a.By()}
	}
	return Decision{Verdict: Ask, By: chat.ByRecheck, Guard: RecheckText}
}

// RecheckText says why a call a rule allowed waits for a person after all.
const RecheckText = "When its turn to run came, the workspace had changed (an earlier call of this answer moved, wrote or deleted something), and no rule allows this call there any more, so it waits for you."

// TurnCapText says why the turn cap held a call a rule allows.
func TurnCapText(turn, max int) string {
	return fmt.Sprintf("Turn cap: this is the model's answer %d since your message, past the limit of %d in Settings, so its calls wait for you even if a rule allows them.", turn, max)
}

// pick finds the rule of an effect that covers the subject now.
func pick(rules []chat.Rule, effect chat.RuleEffect, s Subject, now int64) (chat.Rule, bool) {
	var best chat.Rule
	found := false
	for _, r := range rules {
		if r.Effect != effect || !Active(r, s.Call, now) || !Matches(r, s) {
			continue
		}
		if !found || narrower(r, best) {
			best, found = r, true
		}
	}
	return best, found
}

// narrower orders rules: the narrowest scope first, then the oldest.
func narrower(a, b chat.Rule) bool {
	ia, ib := slices.Index(chat.Scopes, a.Scope), slices.Index(chat.Scopes, b.Scope)
	if ia != ib {
		return ia < ib
	}
	return a.ID < b.ID
}

// Test says which of a chat's calls a rule would have covered: the calls
// whose tool and arguments (as proposed) it matches, in its chat (and for
// a "call" rule its answer), whatever the clock says. Problem cards are
// left out: no rule runs them. subject gives each call's paths.
func Test(r chat.Rule, calls []chat.Call, subject func(chat.Call) Subject) []chat.Call {
	out := []chat.Call{}
	for _, c := range calls {
		if c.State == chat.CallProblem || c.Fixed() {
			continue
		}
		s := subject(c)
		if Active(r, c, r.CreatedAt) && Matches(r, s) {
			out = append(out, c)
		}
	}
	return out
}
