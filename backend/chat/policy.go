package chat

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Rules: what may run (or never run) without asking. The matching logic is
// in package approval; these are the stored shapes.

// RuleEffect says what a rule does to the calls it covers.
type RuleEffect string

const (
	RuleAllow RuleEffect = "allow" // run without asking
	RuleDeny  RuleEffect = "deny"  // never run; the model is told the rule's message
)

// RuleScope says how long, and where, a rule holds.
type RuleScope string

const (
	ScopeCall    RuleScope = "call"    // the call it was made from and the other calls of the same answer
	ScopeChat    RuleScope = "chat"    // every call of one chat
	ScopeHour    RuleScope = "hour"    // every chat, for an hour
	ScopeSession RuleScope = "session" // every chat, until Airlock quits
	ScopeAlways  RuleScope = "always"  // every chat, until revoked
)

// Scopes lists the scopes, narrowest first.
var Scopes = []RuleScope{ScopeCall, ScopeChat, ScopeHour, ScopeSession, ScopeAlways}

// Transient reports a scope that ends when Airlock quits.
func (s RuleScope) Transient() bool { return s == ScopeCall || s == ScopeSession }

// MatchKind says which arguments a rule looks at.
type MatchKind string

const (
	MatchAny   MatchKind = "any"   // any arguments
	MatchPath  MatchKind = "path"  // every path argument lies under a folder
	MatchExact MatchKind = "exact" // one argument has exactly this value
	// MatchReadOnly: the tools of one MCP server (Rule.ToolServer) that
	// say, when the call is decided, readOnlyHint true and not
	// destructiveHint true. The annotations are the server's claims, not
	// proof; a tool without them is never covered. Allow rules only.
	MatchReadOnly MatchKind = "readonly"
)

// RuleMatch is what a rule asks of a call's arguments.
type RuleMatch struct {
	Kind MatchKind `json:"kind"`
	// Path (kind "path"): a folder relative to the workspace root, clean
	// and NFC ("docs", "." for the whole workspace), or a glob of folders
	// ("src/*/gen", "**/secrets").
	Path string `json:"path,omitempty"`
	// Arg and Value (kind "exact"): the argument's name and its JSON value.
	Arg   string          `json:"arg,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// Rule is an always-allow or never-allow decision.
type Rule struct {
	ID     int64      `json:"id"`
	Effect RuleEffect `json:"effect"`
	// Tool is a tool's canonical name, or a glob of names ("mcp__git__*").
	Tool string `json:"tool"`
	// ToolServer and ToolRemote: for a rule on one MCP tool, the server and
	// the tool's own name there. The rule follows that tool whatever
	// sanitised name it is offered under; "" for Airlock's tools and globs.
	ToolServer string    `json:"toolServer,omitempty"`
	ToolRemote string    `json:"toolRemote,omitempty"`
	Match      RuleMatch `json:"match"`
	Scope      RuleScope `json:"scope"`
	// ChatID: the chat a "chat" (or "call") rule holds in; "" for every chat.
	ChatID string `json:"chatId"`
	// MessageID: for a "call" rule, the answer whose calls it covers.
	MessageID string `json:"messageId,omitempty"`
	// ExpiresAt: when an "hour" rule ends (ms); 0 for none.
	ExpiresAt int64 `json:"expiresAt,omitempty"`
	// Message: for a deny rule, what the model is told each time.
	Message string `json:"message,omitempty"`
	// FromCall: the card the rule was made from, if any.
	FromCall   string `json:"fromCall,omitempty"`
	CreatedAt  int64  `json:"createdAt"`
	Uses       int64  `json:"uses"`                 // calls it allowed (or denied)
	LastUsedAt int64  `json:"lastUsedAt,omitempty"` // when it last did
}

// By is how a call decided by the rule records who decided: "rule:<id>".
func (r Rule) By() string { return ByRulePrefix + strconv.FormatInt(r.ID, 10) }

// Who made a decision, beyond ByUser and the legacy rule values.
const (
	ByRulePrefix = "rule:"       // + the rule's id: "rule:12"
	ByLoopGuard  = "loop_guard"  // the loop guard held a call a rule allowed
	ByTurnCap    = "turn_cap"    // the turn cap held a call a rule allowed
	ByRepaired   = "repaired"    // a repaired call a rule allowed waits for a person
	ByNewMessage = "new_message" // the user wrote instead of deciding
	ByTimeout    = "timeout"     // the run took longer than the tool timeout
	// ByRecheck: when its turn to run came, the workspace had changed so
	// that the rule which allowed the call no longer did (or a never rule
	// now covers it); it went back to a person.
	ByRecheck = "recheck"
)

// RuleID reads the rule id out of a DecidedBy value ("rule:12" → 12); 0
// when the decision was not a rule's (or a legacy "rule:chat").
func RuleID(by string) int64 {
	s, ok := strings.CutPrefix(by, ByRulePrefix)
	if !ok {
		return 0
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}

// --- the audit trail -------------------------------------------------------

// AuditDecision is what happened to a call, one row each time.
type AuditDecision string

const (
	AuditApproved    AuditDecision = "approved"    // to run as proposed (by you or a rule)
	AuditEdited      AuditDecision = "edited"      // to run with arguments you changed
	AuditFixed       AuditDecision = "fixed"       // a problem card fixed and run
	AuditDenied      AuditDecision = "denied"      // by you (reason) or a never rule (message)
	AuditHeld        AuditDecision = "held"        // a rule allowed it; the loop guard or turn cap made it wait
	AuditSuperseded  AuditDecision = "superseded"  // a new message settled it: denied, never ran
	AuditToldModel   AuditDecision = "told_model"  // a problem card's error sent to the model
	AuditRan         AuditDecision = "ran"         // the run ended (result status, duration)
	AuditCancelled   AuditDecision = "cancelled"   // stopped by you while it ran
	AuditTimedOut    AuditDecision = "timed_out"   // stopped by the tool timeout
	AuditInterrupted AuditDecision = "interrupted" // Airlock stopped while it ran
	// AuditAnswered: an MCP server asked the person while the call ran;
	// Detail says what and the answer, Arguments holds what was sent.
	AuditAnswered AuditDecision = "answered"
)

// AuditDecisions lists every decision kind.
var AuditDecisions = []AuditDecision{AuditApproved, AuditEdited, AuditFixed, AuditDenied, AuditHeld, AuditSuperseded,
	AuditToldModel, AuditRan, AuditCancelled, AuditTimedOut, AuditInterrupted, AuditAnswered}

// ValidAuditDecision reports a known decision kind.
func ValidAuditDecision(d string) bool {
	for _, k := range AuditDecisions {
		if string(k) == d {
			return true
		}
	}
	return false
}

// ValidDecidedBy reports a known decider: user, rule:<id>, loop_guard,
// turn_cap, new_message, timeout, system, or a legacy rule:chat/rule:global.
func ValidDecidedBy(by string) bool {
	switch by {
	case ByUser, ByRuleChat, ByRuleGlobal, ByInterrupted, ByLoopGuard, ByTurnCap, ByRepaired, ByNewMessage, ByTimeout, ByRecheck:
		return true
	}
	return RuleID(by) > 0 || AgentID(by) != ""
}

// AuditEntry is one decision on one call. Rows are only ever appended.
type AuditEntry struct {
	ID        int64         `json:"id"`  // local, increasing: the order of events and the paging cursor
	UID       string        `json:"uid"` // globally unique: what an export and import match on
	ChatID    string        `json:"chatId"`
	CallID    string        `json:"callId"` // "" for a run by hand in the Tool lab
	MessageID string        `json:"messageId"`
	Tool      string        `json:"tool"`
	Decision  AuditDecision `json:"decision"`
	DecidedBy string        `json:"decidedBy"`
	RuleID    int64         `json:"ruleId,omitempty"`
	Rule      string        `json:"rule,omitempty"`   // the rule as it read then
	Detail    string        `json:"detail,omitempty"` // the reason, the rule's message, the guard, the error
	At        int64         `json:"at"`
	// Arguments as the model proposed them; RunArguments as they ran (or
	// are to run); null when nothing ran.
	Arguments    json.RawMessage `json:"arguments"`
	RunArguments json.RawMessage `json:"runArguments"`
	Preview      json.RawMessage `json:"preview"`      // what the card showed (a diff), bounded
	ResultStatus ToolStatus      `json:"resultStatus"` // success, error, denied; "" before a result
	DurationMs   int64           `json:"durationMs"`   // for a run's outcome
	// Imported: the row came in an imported file, not from a decision made
	// here; nothing vouches for it (its "rule:<id>" names a rule there).
	Imported bool `json:"imported"`
}

// Audit bounds: a row never carries more than this of the arguments or
// the preview (long strings inside are cut, the JSON stays valid).
const (
	MaxAuditJSON   = 64 << 10
	MaxAuditDetail = 4 << 10
)
