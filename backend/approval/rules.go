package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"airlock/backend/chat"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
)

// Draft is a rule as a person asks for it, usually from a card.
type Draft struct {
	Effect chat.RuleEffect `json:"effect"` // "allow" (default) or "deny"
	// Tool: "" for the card's tool; else a canonical name or a glob of
	// names ("mcp__git__*").
	Tool  string         `json:"tool,omitempty"`
	Match chat.MatchKind `json:"match"` // "any" (default), "path", "exact" or "readonly"
	// Path (match "path"): the folder, or a glob of folders; "" for the
	// folder of the card's path ("docs" for read_file docs/a.md).
	Path string `json:"path,omitempty"`
	// Arg and Value (match "exact"): the argument, and its JSON value ("" /
	// null: the card's value of it).
	Arg   string          `json:"arg,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	Scope chat.RuleScope  `json:"scope"` // call, chat, hour, session, always
	// ChatID: for a chat rule made without a card.
	ChatID string `json:"chatId,omitempty"`
	// Message: for a never rule, what the model is told each time.
	Message string `json:"message,omitempty"`
}

// Limits on what a rule holds.
const (
	MaxToolPattern = 256
	MaxMessage     = 1000 // runes
	MaxValue       = 4 << 10
	Hour           = int64(time.Hour / time.Millisecond)
)

// ToolInfo is what rules need to know of a tool: its canonical name, its
// arguments that are workspace paths, and for an MCP tool its server and
// its own name there.
type ToolInfo struct {
	Name           string
	PathArgs       []string
	Server, Remote string
}

// ToolsOf finds a tool by a name as a person (or a model) writes it,
// repairing it the way the scanner does (tools.Registry.Lookup: case,
// "functions." prefixes, '-' for '_'); known is false when no tool fits.
type ToolsOf func(name string) (t ToolInfo, known bool)

// NewRule checks a draft and makes the rule it asks for, from a card (from
// may be nil for a rule made in Settings). A tool name is stored as the
// tool calls it (Read_File, read-file and functions.read_file are
// read_file); a name made in Settings that fits no tool is refused, since a
// rule on it would never hold. now stamps it and, for an hour rule, sets
// its end. Errors say what to change.
func NewRule(d Draft, from *chat.Call, toolsOf ToolsOf, now int64) (chat.Rule, error) {
	r := chat.Rule{Effect: d.Effect, Tool: strings.TrimSpace(d.Tool), Match: chat.RuleMatch{Kind: d.Match},
		Scope: d.Scope, ChatID: d.ChatID, CreatedAt: now}
	if r.Effect == "" {
		r.Effect = chat.RuleAllow
	}
	if r.Match.Kind == "" {
		r.Match.Kind = chat.MatchAny
	}
	if r.Tool == "" && from != nil {
		r.Tool = from.Name
	}
	if from != nil {
		r.FromCall = from.ID
	}
	switch {
	case r.Effect != chat.RuleAllow && r.Effect != chat.RuleDeny:
		return r, coded(txtRuleEffect, "effect", strconv.Quote(string(r.Effect)))
	case r.Tool == "":
		return r, coded(txtRuleNoTool)
	case len(r.Tool) > MaxToolPattern || strings.ContainsAny(r.Tool, "/\\") || !utf8.ValidString(r.Tool):
		return r, coded(txtRuleBadTool, "tool", strconv.Quote(r.Tool))
	case hasMeta(r.Tool) && !doublestar.ValidatePattern(r.Tool):
		return r, coded(txtRuleBadToolGlob, "tool", strconv.Quote(r.Tool))
	}
	if r.Match.Kind == chat.MatchReadOnly {
		if err := readOnlyOf(&r, from, toolsOf); err != nil {
			return r, err
		}
		return r, setScope(&r, d, from, now)
	}
	var paths []string
	known := hasMeta(r.Tool)
	if !known && toolsOf != nil {
		var t ToolInfo
		if t, known = toolsOf(r.Tool); known {
			r.Tool, paths, r.ToolServer, r.ToolRemote = t.Name, t.PathArgs, t.Server, t.Remote
		} else if from == nil {
			return r, coded(txtRuleUnknownTool, "tool", strconv.Quote(r.Tool))
		}
	}
	if err := buildMatch(&r, d, from, paths, known); err != nil {
		return r, err
	}
	if err := setScope(&r, d, from, now); err != nil {
		return r, err
	}
	if r.Effect == chat.RuleDeny {
		r.Message = strings.TrimSpace(d.Message)
		if utf8.RuneCountInString(r.Message) > MaxMessage {
			return r, coded(txtRuleMessageLong, "max", MaxMessage)
		}
	}
	return r, nil
}

func invalid(format string, args ...any) error {
	return chat.Errorf("invalid_rule", chat.ErrInvalid, format, args...)
}

// readOnlyOf makes a rule on an MCP server's read-only tools: from a card
// of one of its tools, or from the pattern of its tools (mcp__git__*). The
// rule's tool is that pattern; ToolServer names the server. Allow only:
// a server's claims may narrow what runs by itself, never what is denied.
func readOnlyOf(r *chat.Rule, from *chat.Call, toolsOf ToolsOf) error {
	if r.Effect != chat.RuleAllow {
		return coded(txtRuleReadOnlyDeny)
	}
	server := ""
	if name, ok := strings.CutPrefix(r.Tool, "mcp__"); ok && strings.HasSuffix(name, "__*") {
		server = strings.TrimSuffix(name, "__*")
	} else if toolsOf != nil {
		if t, known := toolsOf(r.Tool); known {
			server = t.Server
		}
	}
	if server == "" || strings.Contains(server, "__") || hasMeta(server) {
		return coded(txtRuleReadOnlyTool, "tool", strconv.Quote(r.Tool))
	}
	r.Tool, r.ToolServer, r.ToolRemote = "mcp__"+server+"__*", server, ""
	return nil
}

func buildMatch(r *chat.Rule, d Draft, from *chat.Call, paths []string, known bool) error {
	fromTool := from != nil && from.Name == r.Tool
	switch r.Match.Kind {
	case chat.MatchAny:
		return nil
	case chat.MatchPath:
		if !hasMeta(r.Tool) && known && len(paths) == 0 {
			return coded(txtRuleNoPaths, "tool", r.Tool)
		}
		if !known {
			return coded(txtRuleFolderTool, "tool", r.Tool)
		}
		folder := d.Path
		if strings.TrimSpace(folder) == "" && fromTool {
			folder = SuggestFolder(*from, paths)
		}
		clean, err := cleanFolder(folder)
		if err != nil {
			return err
		}
		r.Match.Path = clean
		return nil
	case chat.MatchExact:
		r.Match.Arg = strings.TrimSpace(d.Arg)
		if r.Match.Arg == "" {
			return coded(txtRuleNoArg)
		}
		value := bytes.TrimSpace(d.Value)
		if (len(value) == 0 || string(value) == "null") && fromTool {
			a, _ := arguments(from.Arguments)
			v, ok := a.last[r.Match.Arg]
			if !ok {
				return coded(txtRuleArgMissing, "arg", strconv.Quote(r.Match.Arg))
			}
			value = v
		}
		if len(value) == 0 || !json.Valid(value) {
			return coded(txtRuleValueJson, "arg", strconv.Quote(r.Match.Arg))
		}
		if len(value) > MaxValue {
			return coded(txtRuleValueLong, "arg", strconv.Quote(r.Match.Arg), "max", MaxValue)
		}
		for _, p := range paths {
			if p == r.Match.Arg { // a path: stored clean, so "./a" and "a" are one
				var s string
				if json.Unmarshal(value, &s) != nil {
					return coded(txtRulePathString, "arg", strconv.Quote(p))
				}
				clean, err := workspace.CleanPath(s)
				if err != nil {
					return invalid("%s", err.Error())
				}
				value, _ = json.Marshal(clean)
			}
		}
		r.Match.Value = json.RawMessage(canonical(value, false))
		return nil
	}
	return coded(txtRuleMatchKind, "kind", strconv.Quote(string(r.Match.Kind)))
}

// cleanFolder makes a folder (or glob of folders) of a rule: relative to
// the workspace root, cleaned like the tools' paths, in the bytes as typed
// (an allow rule matches those bytes; see Matches).
func cleanFolder(folder string) (string, error) {
	if strings.TrimSpace(folder) == "" {
		return "", coded(txtRuleNoFolder)
	}
	clean, err := workspace.CleanPath(folder)
	if err != nil {
		return "", invalid("%s", err.Error())
	}
	if hasMeta(clean) && !doublestar.ValidatePattern(clean) {
		return "", coded(txtRuleBadFolderGlob, "folder", strconv.Quote(clean))
	}
	return clean, nil
}

func setScope(r *chat.Rule, d Draft, from *chat.Call, now int64) error {
	switch r.Scope {
	case chat.ScopeCall:
		if from == nil {
			return coded(txtRuleCallScope)
		}
		r.ChatID, r.MessageID = from.ChatID, from.MessageID
	case chat.ScopeChat:
		if r.ChatID == "" && from != nil {
			r.ChatID = from.ChatID
		}
		if r.ChatID == "" {
			return coded(txtRuleNoChat)
		}
	case chat.ScopeHour:
		r.ExpiresAt = now + Hour
	case chat.ScopeSession, chat.ScopeAlways:
	default:
		return coded(txtRuleScope, "scope", strconv.Quote(string(r.Scope)))
	}
	if r.Scope != chat.ScopeChat && r.Scope != chat.ScopeCall {
		r.ChatID = d.ChatID // an hour, a session or always: every chat unless one is named
	}
	return nil
}

// SuggestFolder is the folder a path rule offers from a card: the folder of
// the call's first path argument ("docs" for docs/a.md; the folder itself
// for a tool that takes folders, such as list_directory docs); "." when
// the path is at the root or cannot be read.
func SuggestFolder(c chat.Call, pathArgs []string) string {
	a, _ := arguments(c.Arguments)
	for _, name := range pathArgs {
		clean, _, ok := pathOf(a.last[name], nil)
		if !ok {
			continue
		}
		if isFolderTool(c.Name) {
			return clean
		}
		return workspace.ParentOf(clean)
	}
	return "."
}

// isFolderTool: tools whose path is a folder to work in, not a file.
func isFolderTool(name string) bool {
	switch name {
	case "list_directory", "find_files", "make_directory":
		return true
	}
	return false
}

// Describe is a rule in one line, for the audit trail and lists:
// `allow read_file with paths under docs · this chat`.
func Describe(r chat.Rule) string {
	var b strings.Builder
	if r.Effect == chat.RuleDeny {
		b.WriteString("never allow ")
	} else {
		b.WriteString("allow ")
	}
	b.WriteString(r.Tool)
	switch r.Match.Kind {
	case chat.MatchAny:
		b.WriteString(" for any arguments")
	case chat.MatchPath:
		if r.Match.Path == "." {
			b.WriteString(" for any path in the workspace")
		} else {
			fmt.Fprintf(&b, " with paths under %s", r.Match.Path)
		}
	case chat.MatchExact:
		fmt.Fprintf(&b, " when %s = %s", r.Match.Arg, clip(string(r.Match.Value), 120))
	case chat.MatchReadOnly:
		b.WriteString(" that the server says are read-only")
	}
	switch r.Scope {
	case chat.ScopeCall:
		b.WriteString(" · this answer's calls")
	case chat.ScopeChat:
		b.WriteString(" · this chat")
	case chat.ScopeHour:
		b.WriteString(" · for an hour")
	case chat.ScopeSession:
		b.WriteString(" · until Airlock quits")
	case chat.ScopeAlways:
		b.WriteString(" · always")
	}
	return b.String()
}

func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// NeverText is what the model is told about a call a never rule denied.
func NeverText(r chat.Rule) string {
	base := "The user does not allow this call (rule " + strconv.FormatInt(r.ID, 10) + ": " + Describe(r) + ")."
	if r.Message != "" {
		return base + " The user says: " + r.Message
	}
	return base + " Do not retry it; ask the user or do something else."
}

// coded is a refusal of a rule with its sentence coded for the UI's language.
func coded(t uitext.Template, pairs ...any) error {
	return chat.Coded("invalid_rule", chat.ErrInvalid, t.With(pairs...))
}

// The refusals of a rule (shown in the rule dialog).
var (
	txtRuleEffect        = uitext.Define("rule_effect", "a rule allows or denies; {{effect}} is neither")
	txtRuleNoTool        = uitext.Define("rule_no_tool", "say which tool the rule is for")
	txtRuleBadTool       = uitext.Define("rule_bad_tool", "{{tool}} is not a tool name or a pattern of tool names")
	txtRuleBadToolGlob   = uitext.Define("rule_bad_tool_glob", "the tool pattern {{tool}} is not a valid glob")
	txtRuleUnknownTool   = uitext.Define("rule_unknown_tool", "there is no tool named {{tool}} now; pick one from the list (a tool of an MCP server is listed while the server runs; for all of a server's tools use a pattern such as mcp__git__*)")
	txtRuleMessageLong   = uitext.Define("rule_message_long", "the message to the model is too long (at most {{max}} characters)")
	txtRuleNoPaths       = uitext.Define("rule_no_paths", "{{tool}} takes no paths in the workspace; allow it for any arguments or for an exact value")
	txtRuleFolderTool    = uitext.Define("rule_folder_tool", "{{tool}} is not a tool Airlock knows now; a rule on folders needs one")
	txtRuleNoArg         = uitext.Define("rule_no_arg", "say which argument must have the exact value")
	txtRuleArgMissing    = uitext.Define("rule_arg_missing", "this call has no argument {{arg}}")
	txtRuleValueJson     = uitext.Define("rule_value_json", "the value of {{arg}} must be JSON")
	txtRuleValueLong     = uitext.Define("rule_value_long", "the value of {{arg}} is too long for a rule (at most {{max}} bytes)")
	txtRulePathString    = uitext.Define("rule_path_string", "{{arg}} is a path; its value must be a string")
	txtRuleMatchKind     = uitext.Define("rule_match_kind", "a rule matches any arguments, paths under a folder, or an exact value; not {{kind}}")
	txtRuleNoFolder      = uitext.Define("rule_no_folder", "say which folder (relative to the workspace root; \".\" for all of it)")
	txtRuleBadFolderGlob = uitext.Define("rule_bad_folder_glob", "the folder pattern {{folder}} is not a valid glob")
	txtRuleCallScope     = uitext.Define("rule_call_scope", "a rule for this call is made from its card")
	txtRuleNoChat        = uitext.Define("rule_no_chat", "say which chat the rule is for")
	txtRuleReadOnlyDeny  = uitext.Define("rule_readonly_deny", "a rule on a server's read-only tools can only allow; to deny, name the tools")
	txtRuleReadOnlyTool  = uitext.Define("rule_readonly_tool", "{{tool}} is not an MCP server's tool or the pattern of one server's tools (such as mcp__git__*)")
	txtRuleScope         = uitext.Define("rule_scope", "a rule holds for this call, this chat, an hour, until Airlock quits, or always; not {{scope}}")
)
