package approval

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/text/unicode/norm"

	"airlock/backend/chat"
	"airlock/backend/tools"
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
	// Server and Remote: for an MCP tool, its server and its own name
	// there (a rule on one MCP tool follows these, not the name).
	Server, Remote string
	// ReadOnly: the tool cannot change anything (engine.ReadOnlySafe), so
	// an agent whose approval default is chat.ApprovalReads may run it.
	ReadOnly bool
	// Hints: an MCP tool's annotations as its server gives them in its
	// current list (refreshed on list_changed), read when the call is
	// decided; nil: none. Only a chat.MatchReadOnly rule reads them.
	Hints *tools.Hints
}

// claimsReadOnly: the server says now that the tool is read-only and does
// not say it is destructive. A claim, not proof; no annotations, no claim.
func (s Subject) claimsReadOnly() bool {
	return s.Hints != nil && s.Hints.ReadOnly && !s.Hints.Destructive
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
//   - an allow rule compares the very bytes the tool will open (and
//     resolves links on them): "déjà" in NFC and in NFD, or "K" and the
//     Kelvin sign, are different names on Linux, so an allow rule on one
//     never covers the other (a person decides);
//   - a never rule compares broadly: both sides in NFKC with Unicode case
//     folding ("ſecrets" is "secrets", "K" is "k"), so no spelling
//     that a case- or normalisation-insensitive disk would take as the
//     same name slips past it.
func Matches(r chat.Rule, s Subject) bool {
	if !toolMatches(r, s) {
		return false
	}
	switch r.Match.Kind {
	case chat.MatchAny:
		return true
	case chat.MatchPath:
		return pathsMatch(r, s)
	case chat.MatchExact:
		return exactMatches(r, s)
	case chat.MatchReadOnly:
		return true // toolMatches read the server and the claim
	}
	return false
}

// toolMatches: a rule on an MCP server's read-only tools holds for a tool
// of that server that claims to be read-only now; a rule on one MCP tool holds for that tool (server and
// name there) whatever name it is offered under now; else an exact name,
// or a glob of names ("mcp__git__*"), which a never rule reads ignoring
// case.
func toolMatches(r chat.Rule, s Subject) bool {
	pattern, name := r.Tool, s.Call.Name
	switch {
	case r.Match.Kind == chat.MatchReadOnly: // the server's tools that say read-only now
		return r.Effect == chat.RuleAllow && r.ToolServer != "" && r.ToolServer == s.Server && s.Remote != "" && s.claimsReadOnly()
	case r.ToolRemote != "":
		return r.ToolServer == s.Server && r.ToolRemote == s.Remote
	case pattern == name:
		return true
	case !hasMeta(pattern):
		return false
	case r.Effect == chat.RuleDeny:
		return doublestar.MatchUnvalidated(chat.FoldName(pattern), chat.FoldName(name))
	}
	return doublestar.MatchUnvalidated(pattern, name)
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[{") }

// args is a call's arguments object as rules read it.
type args struct {
	last      map[string]json.RawMessage   // as Go's tools read it: the last of equal keys
	byFold    map[string][]json.RawMessage // every value, by folded key (never rules)
	ambiguous bool                         // keys written twice, or alike but for case
}

// arguments reads a call's arguments object; ok is false when they are
// not one.
func arguments(raw json.RawMessage) (a args, ok bool) {
	a.last, a.byFold = map[string]json.RawMessage{}, map[string][]json.RawMessage{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return a, true
	}
	if json.Unmarshal(raw, &a.last) != nil || a.last == nil {
		return a, false
	}
	a.ambiguous = len(chat.AmbiguousKeys(raw)) > 0
	if !a.ambiguous { // one value per key: the map has them all
		for k, v := range a.last {
			a.byFold[chat.FoldName(k)] = []json.RawMessage{v}
		}
		return a, true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return a, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return a, false
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return a, false
		}
		k, _ := tok.(string)
		a.byFold[chat.FoldName(k)] = append(a.byFold[chat.FoldName(k)], v)
	}
	return a, true
}

// values are what an argument may be read as: for an allow rule the value
// the tools read (missing: none), for a never rule every value of a key
// that folds to the name.
func (a args) values(name string, deny bool) []json.RawMessage {
	if deny {
		return a.byFold[chat.FoldName(name)]
	}
	if v, found := a.last[name]; found {
		return []json.RawMessage{v}
	}
	return nil
}

// pathOf reads a path argument: its cleaned form and where it leads, on
// the bytes as written (the tools open those). A missing or null argument
// is the workspace root, as the tools take it. ok is false for a path that
// is not a string or cannot be cleaned; resolved is "" when its links
// cannot be followed.
func pathOf(raw json.RawMessage, resolve func(string) (string, error)) (clean, resolved string, ok bool) {
	var p string
	if raw != nil && string(bytes.TrimSpace(raw)) != "null" {
		if json.Unmarshal(raw, &p) != nil {
			return "", "", false
		}
	}
	clean, err := workspace.CleanPath(p)
	if err != nil {
		return "", "", false
	}
	resolved = clean
	if resolve != nil {
		if resolved, err = resolve(clean); err != nil {
			resolved = ""
		} else if resolved, err = workspace.CleanPath(resolved); err != nil {
			resolved = ""
		}
	}
	return clean, resolved, true
}

// pathValues are the values a path argument may be read as; a missing
// argument is the root (nil).
func (a args) pathValues(name string, deny bool) []json.RawMessage {
	if vs := a.values(name, deny); len(vs) > 0 {
		return vs
	}
	return []json.RawMessage{nil}
}

func pathsMatch(r chat.Rule, s Subject) bool {
	a, isObject := arguments(s.Call.Arguments)
	deny := r.Effect == chat.RuleDeny
	if len(s.PathArgs) == 0 || !isObject || (!deny && a.ambiguous) {
		return false
	}
	folder := r.Match.Path
	for _, name := range s.PathArgs {
		for _, raw := range a.pathValues(name, deny) {
			clean, resolved, ok := pathOf(raw, s.Resolve)
			switch {
			case deny && ok && (under(folder, clean, true) || (resolved != "" && under(folder, resolved, true))):
				return true
			case !deny && (!ok || resolved == "" || !under(folder, clean, false) || !under(folder, resolved, false)):
				return false
			}
		}
	}
	return !deny
}

// under reports a clean path at or beneath a folder, or beneath a folder
// a glob matches ("src/*/gen", "**/secrets"). The root is under "." only.
// fold: compared as never rules compare (chat.FoldName).
func under(folder, p string, fold bool) bool {
	if fold {
		folder, p = chat.FoldName(folder), chat.FoldName(p)
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

// exactMatches: an allow rule needs the value exactly (bytes of strings
// as written, keys in any order) and no ambiguous key anywhere in the
// arguments; a never rule any value read for the argument, strings
// compared in NFC.
func exactMatches(r chat.Rule, s Subject) bool {
	a, isObject := arguments(s.Call.Arguments)
	deny := r.Effect == chat.RuleDeny
	if !isObject || (!deny && a.ambiguous) {
		return false
	}
	isPath := slices.Contains(s.PathArgs, r.Match.Arg)
	for _, raw := range a.values(r.Match.Arg, deny) {
		if !isPath {
			if canonical(raw, deny) == canonical(r.Match.Value, deny) {
				return true
			}
			if !deny {
				return false
			}
			continue
		}
		// A path: the same place, not the same spelling ("./a" is "a").
		var want string
		if json.Unmarshal(r.Match.Value, &want) != nil {
			return false
		}
		want, err := workspace.CleanPath(want)
		clean, resolved, ok := pathOf(raw, s.Resolve)
		switch {
		case !ok || err != nil:
			if !deny {
				return false
			}
		case deny:
			if chat.FoldName(clean) == chat.FoldName(want) || (resolved != "" && chat.FoldName(resolved) == chat.FoldName(want)) {
				return true
			}
		default:
			return clean == want && resolved == want
		}
	}
	return false
}

// canonical is a JSON value with sorted keys, for comparing values ("" for
// text that is not JSON); nfc: strings and keys in NFC (never rules).
func canonical(raw json.RawMessage, nfcForm bool) string {
	var v any
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	if nfcForm {
		v = nfc(v)
	}
	b, _ := json.Marshal(v)
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
