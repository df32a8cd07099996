package approval

import (
	"fmt"

	"airlock/backend/chat"
)

// An agent's approval defaults (chat.ApprovalMode) say which rules decide
// the calls of its chats:
//
//   - rules: your rules decide, as in every chat before agents;
//   - reads: as rules, and a call of a tool that only reads, whose paths
//     all lie inside the workspace, runs without asking (decided by
//     "agent:<id>");
//   - ask: your Always-allow rules for every chat run nothing; a call one
//     of them covers is held for a person, by "agent:<id>", with why. A
//     rule made for the chat still allows.
//
// A never rule denies in every mode, and the repair check, the loop guard
// and the turn cap hold a call the agent allows as they hold one a rule
// allows.

// AgentGrantText is what the trail says of a call the agent's "reads"
// default ran.
func AgentGrantText(a chat.Agent) string {
	return fmt.Sprintf("Agent %q: tools that only read run without asking inside the workspace.", a.Name)
}

// AskEveryTimeText says why a call a rule for every chat allows waits.
func AskEveryTimeText(a chat.Agent, r chat.Rule) string {
	return fmt.Sprintf("Ask every time: the agent %q asks for every call, so your rule for every chat (%s) does not run it here. Allow it in this chat to stop asking.", a.Name, Describe(r))
}

// forAgent narrows the rules to those the agent lets apply, and returns
// the allow rules for every chat it set aside (under "ask").
func forAgent(rules []chat.Rule, a chat.Agent) (kept []chat.Rule, setAside []chat.Rule) {
	if a.Approval != chat.ApprovalAsk {
		return rules, nil
	}
	for _, r := range rules {
		if r.Effect == chat.RuleAllow && r.ChatID == "" {
			setAside = append(setAside, r)
			continue
		}
		kept = append(kept, r)
	}
	return kept, setAside
}

// grants says whether the agent's "reads" default runs a call: the tool
// only reads, and every path it names lies inside the workspace (cleaned,
// and where its links lead), read as an allow rule on "." reads them.
func grants(a chat.Agent, s Subject) bool {
	if a.Approval != chat.ApprovalReads || a.ID == "" || !s.ReadOnly {
		return false
	}
	if _, isObject := arguments(s.Call.Arguments); !isObject {
		return false
	}
	if len(s.PathArgs) == 0 {
		return true
	}
	inside := chat.Rule{Effect: chat.RuleAllow, Tool: s.Call.Name, Match: chat.RuleMatch{Kind: chat.MatchPath, Path: "."}}
	return pathsMatch(inside, s)
}
