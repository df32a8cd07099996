package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MaxToolNameLen is the longest tool name the model APIs accept (OpenAI's
// function names: ^[a-zA-Z0-9_-]{1,64}$).
const MaxToolNameLen = 64

// ToolPrefix starts the name of every MCP tool offered to the model.
const ToolPrefix = "mcp__"

// ToolNames gives each tool of one server its name for the model:
// mcp__<server>__<tool>. The tool part is sanitised to [A-Za-z0-9_-]. A
// name that needed no change and fits in 64 characters is always kept as
// it is; a changed name that is too long, or that collides with another,
// is shortened and given a hash of the original name, so every name is
// unique and depends only on the set of names, not on their order.
// The server name must be valid (see ValidateName).
func ToolNames(server string, tools []string) []string {
	base := ToolPrefix + server + "__"
	out := make([]string, len(tools))
	claimed := map[string]bool{}
	// First the names that need no change: they are unique already.
	for i, t := range tools {
		if full := base + t; sanitize(t) == t && t != "" && len(full) <= MaxToolNameLen && !claimed[full] {
			out[i], claimed[full] = full, true
		}
	}
	// Then the others; a sanitised form two of them share goes to neither.
	wanted := map[string]int{}
	for i, t := range tools {
		if out[i] == "" {
			wanted[base+sanitize(t)]++
		}
	}
	for i, t := range tools {
		if out[i] != "" {
			continue
		}
		full := base + sanitize(t)
		if len(full) > MaxToolNameLen || wanted[full] > 1 || claimed[full] {
			full = hashedName(base, t, claimed)
		}
		out[i], claimed[full] = full, true
	}
	return out
}

// hashedName is base + the sanitised tool name cut to fit + "_" + 8 hex
// digits of the original name's hash.
func hashedName(base, tool string, claimed map[string]bool) string {
	for salt := ""; ; salt += "+" {
		sum := sha256.Sum256([]byte(tool + salt))
		suffix := "_" + hex.EncodeToString(sum[:4])
		room := MaxToolNameLen - len(base) - len(suffix)
		name := base + truncate(sanitize(tool), room) + suffix
		if !claimed[name] {
			return name
		}
	}
}

func truncate(s string, n int) string {
	if n < 0 {
		n = 0
	}
	if len(s) > n {
		return s[:n] // sanitised names are ASCII
	}
	return s
}

// sanitize replaces every character outside [A-Za-z0-9_-] by '_'.
func sanitize(name string) string {
	if name == "" {
		return "tool"
	}
	var b strings.Builder
	for _, r := range name {
		if r < 0x80 && (isAlnum(byte(r)) || r == '_' || r == '-') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
