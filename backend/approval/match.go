package approval

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/text/unicode/norm"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// Subject is a call as rules see it: its tool, its arguments as proposed,
// where it was made, and how to read its paths.
type Subject struct {
	Call chat.Call
	// PathArgs are the tool's arguments that are workspace paths
	// (tools.Tool.PathArgs); none: rules on folders never match.
	PathArgs []string
	// Resolve follows the workspace's links (tools.Env.Resolve); nil:
	// paths are taken as cleaned.
	Resolve func(path string) (string, error)
}

// Active reports whether a rule holds for a call made now: not expired,
// in its chat, and for a "call" rule in its answer.
func Active(r chat.Rule, c chat.Call, now int64) bool {
	switch {
	case r.ExpiresAt != 0 && now >= r.ExpiresAt:
		return false
	case r.ChatID != "" && r.ChatID != c.ChatID:
		return false
	case r.Scope == chat.ScopeCall && r.MessageID != c.MessageID:
		return false
	case r.Scope == chat.ScopeChat && r.ChatID == "":
		return false // a chat rule without its chat holds nowhere
	}
	return true
}

// Matches reports whether a rule covers a call's tool and arguments (not
// whether it is active: see Active).
//
// Allow rules are read narrowly and never rules broadly, so that a doubt
// always ends with a person deciding:
//
//   - a path rule looks at every path argument of the tool; an allow rule
//     needs each of them under the folder, both as written (cleaned) and
//     where its links lead; a never rule needs one of them, either way;
//   - a path that cannot be cleaned (absolute, "..", NUL, outside the
//     workspace) or resolved (a link out, a loop) is under no folder;
//   - allow rules compare paths case-sensitively, never rules ignoring
//     case (a case-insensitive disk would otherwise slip past them);
//   - both sides are NFC-normalised (macOS writes names decomposed).
func Matches(r chat.Rule, s Subject) bool {
	if !toolMatches(r.Tool, s.Call.Name) {
		return false
	}
	switch r.Match.Kind {
	case chat.MatchAny:
		return true
	case chat.MatchPath:
		return pathsMatch(r, s)
	case chat.MatchExact:
		return exactMatches(r, s)
	}
	return false
}

// toolMatches: an exact name, or a glob of names ("mcp__git__*").
func toolMatches(pattern, name string) bool {
	if pattern == name {
		return true
	}
	return hasMeta(pattern) && doublestar.MatchUnvalidated(pattern, name)
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[{") }

// arguments reads a call's arguments object; nil when they are not one.
func arguments(raw json.RawMessage) map[string]json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]json.RawMessage{}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil
	}
	return m
}

// pathOf reads a path argument: its cleaned form and where it leads. A
// missing or null argument is the workspace root, as the tools take it.
// ok is false for a path that is not a string or cannot be cleaned;
// resolved is "" when its links cannot be followed.
func pathOf(args map[string]json.RawMessage, name string, resolve func(string) (string, error)) (clean, resolved string, ok bool) {
	var p string
	if raw, found := args[name]; found && string(bytes.TrimSpace(raw)) != "null" {
		if json.Unmarshal(raw, &p) != nil {
			return "", "", false
		}
	}
	clean, err := workspace.CleanPath(norm.NFC.String(p))
	if err != nil {
		return "", "", false
	}
	resolved = clean
	if resolve != nil {
		if resolved, err = resolve(clean); err != nil {
			resolved = ""
		} else if resolved, err = workspace.CleanPath(norm.NFC.String(resolved)); err != nil {
			resolved = ""
		}
	}
	return clean, resolved, true
}

func pathsMatch(r chat.Rule, s Subject) bool {
	args := arguments(s.Call.Arguments)
	if len(s.PathArgs) == 0 || args == nil {
		return false
	}
	deny := r.Effect == chat.RuleDeny
	folder := norm.NFC.String(r.Match.Path)
	for _, name := range s.PathArgs {
		clean, resolved, ok := pathOf(args, name, s.Resolve)
		switch {
		case deny && ok && (under(folder, clean, true) || (resolved != "" && under(folder, resolved, true))):
			return true
		case !deny && (!ok || resolved == "" || !under(folder, clean, false) || !under(folder, resolved, false)):
			return false
		}
	}
	return !deny
}

// under reports a clean path at or beneath a folder, or beneath a folder
// a glob matches ("src/*/gen", "**/secrets"). The root is under "." only.
func under(folder, p string, fold bool) bool {
	if fold {
		folder, p = strings.ToLower(folder), strings.ToLower(p)
	}
	if !hasMeta(folder) {
		return workspace.Within(p, folder)
	}
	for q := p; q != "." && q != ""; q = workspace.ParentOf(q) {
		if doublestar.MatchUnvalidated(folder, q) {
			return true
		}
	}
	return false
}

func exactMatches(r chat.Rule, s Subject) bool {
	args := arguments(s.Call.Arguments)
	if args == nil {
		return false
	}
	raw, found := args[r.Match.Arg]
	if !found {
		return false
	}
	deny := r.Effect == chat.RuleDeny
	for _, name := range s.PathArgs {
		if name != r.Match.Arg {
			continue
		}
		// A path: the same place, not the same spelling ("./a" is "a").
		var want string
		if json.Unmarshal(r.Match.Value, &want) != nil {
			return false
		}
		want, err := workspace.CleanPath(norm.NFC.String(want))
		clean, resolved, ok := pathOf(args, name, s.Resolve)
		switch {
		case !ok || err != nil:
			return false
		case deny:
			return strings.EqualFold(clean, want) || strings.EqualFold(resolved, want)
		}
		return clean == want && resolved == want
	}
	return canonical(raw) == canonical(r.Match.Value)
}

// canonical is a JSON value with sorted keys and NFC strings, for
// comparing values; "" for text that is not JSON.
func canonical(raw json.RawMessage) string {
	var v any
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	b, _ := json.Marshal(nfc(v))
	return string(b)
}

func nfc(v any) any {
	switch x := v.(type) {
	case string:
		return norm.NFC.String(x)
	case []any:
		for i := range x {
			x[i] = nfc(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[norm.NFC.String(k)] = nfc(e)
		}
		return out
	}
	return v
}
