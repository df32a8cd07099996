package export

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"airlock/backend/chat"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
)

// WriteJSON writes the bundle as indented JSON, keys in a fixed order:
// the same bundle always gives the same bytes.
func WriteJSON(w io.Writer, b Bundle) error {
	b.Chats = append([]Chat(nil), b.Chats...)
	if b.Chats == nil {
		b.Chats = []Chat{}
	}
	for i := range b.Chats {
		c := &b.Chats[i]
		if c.Messages == nil {
			c.Messages = []Message{}
		}
		if c.ScratchFiles == nil {
			c.ScratchFiles = []File{}
		}
		audit := make([]AuditRow, len(c.Audit))
		for j, r := range c.Audit {
			r.Arguments = jsonValue(r.Arguments, "null")
			r.RunArguments = jsonValue(r.RunArguments, "null")
			r.Preview = jsonValue(r.Preview, "null")
			audit[j] = r
		}
		c.Audit = audit
		calls := make([]Call, len(c.Calls))
		for j, cl := range c.Calls {
			cl.Arguments = jsonValue(cl.Arguments, "{}")
			cl.Edited = jsonValue(cl.Edited, "null")
			cl.Preview = jsonValue(cl.Preview, "null")
			calls[j] = cl
		}
		c.Calls = calls
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

// importError is the error for a file that cannot be imported. It reads as
// "cannot import: <what is wrong>".
func importError(format string, args ...any) error {
	detail := fmt.Sprintf(format, args...)
	reason, ok := uitext.Match(detail, importTemplates...)
	if !ok {
		reason = uitext.Plain(detail) // a field's path and what is wrong with it: stays as written
	}
	return chat.Coded("bad_import", chat.ErrInvalid, txtCannotImport.With("reason", reason))
}

// ReadJSON reads an Airlock export and checks it completely, so an import
// either takes all of it or nothing. Errors say what is wrong and where:
// "cannot import: the file is truncated at byte 5120 ...", "unsupported
// export version 2 ...", "chats[2].messages[5].role: missing".
func ReadJSON(r io.Reader) (Bundle, error) {
	data, err := readCapped(r)
	if err != nil {
		return Bundle{}, err
	}
	orig := data
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return Bundle{}, importError("the file is empty")
	}
	if data[0] == '[' {
		return Bundle{}, importError("not an Airlock export: the file holds a JSON array, not an object (a ChatGPT conversations.json? Read detects those)")
	}
	// Each level is split into its fields once; the big arrays are only
	// scanned again element by element.
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		if err := checkSyntax(orig); err != nil {
			return Bundle{}, err
		}
		return Bundle{}, importError("the file: want an object, got %s", jsonKind(data))
	}
	var format string
	if raw, ok := top["format"]; !ok || string(raw) == "null" {
		return Bundle{}, importError("not an Airlock export: it has no \"format\" field")
	} else if json.Unmarshal(raw, &format) != nil {
		return Bundle{}, importError("format: want a string, got %s", jsonKind(raw))
	}
	if format != Format {
		return Bundle{}, importError("not an Airlock export: \"format\" is %q, want %q", format, Format)
	}
	var version int
	if raw, ok := top["version"]; !ok || string(raw) == "null" {
		return Bundle{}, importError("version: missing")
	} else if json.Unmarshal(raw, &version) != nil {
		return Bundle{}, importError("version: want a whole number, got %s", raw)
	}
	if version != Version {
		return Bundle{}, importError("unsupported export version %d (this Airlock reads version %d)", version, Version)
	}
	var exportedAt int64
	if raw, ok := top["exportedAt"]; ok && json.Unmarshal(raw, &exportedAt) != nil {
		return Bundle{}, importError("exportedAt: want a number, got %s", jsonKind(raw))
	}
	var chats []json.RawMessage
	if raw, ok := top["chats"]; !ok || string(raw) == "null" {
		return Bundle{}, importError("chats: missing")
	} else if json.Unmarshal(raw, &chats) != nil {
		return Bundle{}, importError("chats: want an array, got %s", jsonKind(raw))
	}
	b := Bundle{Format: format, Version: version, ExportedAt: exportedAt, Chats: make([]Chat, 0, len(chats))}
	for i, raw := range chats {
		c, err := decodeChat(raw, fmt.Sprintf("chats[%d]", i))
		if err != nil {
			return Bundle{}, err
		}
		b.Chats = append(b.Chats, c)
	}
	if err := b.Validate(); err != nil {
		return Bundle{}, err
	}
	return b, nil
}

// checkSyntax explains invalid JSON: empty, cut short, or malformed where;
// nil for valid JSON.
func checkSyntax(data []byte) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return importError("the file is empty")
	}
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		if se.Offset >= int64(len(data)) || strings.Contains(se.Error(), "unexpected end of JSON input") {
			return importError("the file is truncated at byte %d: the JSON stops before it is complete (was the export or the download interrupted?)", len(data))
		}
		line, col := lineCol(data, se.Offset)
		return importError("the file is not valid JSON: %v at byte %d (line %d, column %d)", se, se.Offset, line, col)
	}
	return importError("the file is not valid JSON: %v", err)
}

func lineCol(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off-1 && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// decodeObject decodes a JSON object into dst, first checking that the
// required keys are there (and not null). Errors name the path.
func decodeObject(raw []byte, path string, dst any, required ...string) error {
	at := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		where := path
		if where == "" {
			where = "the file"
		}
		return importError("%s: want an object, got %s", where, jsonKind(raw))
	}
	var keys map[string]json.RawMessage
	if len(required) > 0 {
		if err := json.Unmarshal(raw, &keys); err != nil {
			return importError("%s: %v", path, err)
		}
	}
	for _, k := range required {
		if v, ok := keys[k]; !ok || string(v) == "null" {
			return importError("%s: missing", at(k))
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Fields of embedded structs carry the struct's name.
			field := strings.TrimPrefix(te.Field, "Message.")
			return importError("%s: want %s, got %s", at(field), goKind(te.Type.Kind().String()), te.Value)
		}
		return importError("%s: %v", path, err)
	}
	return nil
}

func jsonKind(raw []byte) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "nothing"
	}
	switch s[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '{':
		return "an object"
	}
	return "a number"
}

func goKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"), strings.HasPrefix(k, "float"):
		return "a number"
	case k == "string":
		return "a string"
	case k == "bool":
		return "true or false"
	case k == "slice":
		return "an array"
	case k == "struct", k == "map", k == "ptr":
		return "an object"
	}
	return k
}

func decodeChat(raw json.RawMessage, path string) (Chat, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return Chat{}, importError("%s: want an object, got %s", path, jsonKind(raw))
	}
	var w struct {
		ID           string            `json:"id"`
		Title        string            `json:"title"`
		CreatedAt    int64             `json:"createdAt"`
		UpdatedAt    int64             `json:"updatedAt"`
		Pinned       bool              `json:"pinned"`
		LeafID       string            `json:"leafId"`
		Options      json.RawMessage   `json:"options"`
		Messages     []json.RawMessage `json:"messages"`
		Calls        []json.RawMessage `json:"calls"`
		ScratchFiles []json.RawMessage `json:"scratchFiles"`
		Audit        []json.RawMessage `json:"audit"`
		Agent        json.RawMessage   `json:"agent"`
	}
	for _, k := range []string{"id", "messages"} {
		if v, ok := fields[k]; !ok || string(v) == "null" {
			return Chat{}, importError("%s.%s: missing", path, k)
		}
	}
	for _, f := range []struct {
		key string
		dst any
	}{{"id", &w.ID}, {"title", &w.Title}, {"createdAt", &w.CreatedAt}, {"updatedAt", &w.UpdatedAt}, {"pinned", &w.Pinned},
		{"leafId", &w.LeafID}, {"options", &w.Options}, {"messages", &w.Messages}, {"calls", &w.Calls},
		{"scratchFiles", &w.ScratchFiles}, {"audit", &w.Audit}, {"agent", &w.Agent}} {
		key, dst := f.key, f.dst
		if v, ok := fields[key]; ok {
			if err := json.Unmarshal(v, dst); err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					return Chat{}, importError("%s.%s: want %s, got %s", path, key, goKind(te.Type.Kind().String()), te.Value)
				}
				return Chat{}, importError("%s.%s: %v", path, key, err)
			}
		}
	}
	d := chat.DefaultChatOptions()
	c := Chat{ID: w.ID, Title: w.Title, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt, Pinned: w.Pinned, LeafID: w.LeafID,
		Options:  Options{Paradigm: d.Paradigm, RecognizeOthers: d.RecognizeOthers, WorkspaceKind: d.WorkspaceKind},
		Messages: []Message{}, Calls: []Call{}, ScratchFiles: []File{}, Audit: []AuditRow{}}
	if len(w.Options) > 0 && string(w.Options) != "null" {
		if err := decodeObject(w.Options, path+".options", &c.Options); err != nil {
			return Chat{}, err
		}
	}
	if len(w.Agent) > 0 && string(w.Agent) != "null" {
		// Checked when imported: one that does not check out leaves the
		// chat with the default agent.
		c.Agent = &chat.Agent{}
		if err := decodeObject(w.Agent, path+".agent", c.Agent); err != nil {
			return Chat{}, err
		}
	}
	for i, r := range w.Messages {
		// One pass per message (they are most of a file): the required
		// fields are pointers, nil when absent.
		var wm struct {
			Message
			ID   *string `json:"id"`
			Role *string `json:"role"`
		}
		wm.Kind, wm.Status = string(chat.KindText), string(chat.StatusComplete)
		mp := fmt.Sprintf("%s.messages[%d]", path, i)
		if err := decodeObject(r, mp, &wm); err != nil {
			return Chat{}, err
		}
		switch {
		case wm.ID == nil:
			return Chat{}, importError("%s.id: missing", mp)
		case wm.Role == nil:
			return Chat{}, importError("%s.role: missing", mp)
		}
		m := wm.Message
		m.ID, m.Role = *wm.ID, *wm.Role
		c.Messages = append(c.Messages, m)
	}
	for i, r := range w.Calls {
		var cl Call
		if err := decodeObject(r, fmt.Sprintf("%s.calls[%d]", path, i), &cl, "id", "messageId", "name", "state"); err != nil {
			return Chat{}, err
		}
		c.Calls = append(c.Calls, cl)
	}
	for i, r := range w.ScratchFiles {
		f := File{Encoding: "utf-8"}
		if err := decodeObject(r, fmt.Sprintf("%s.scratchFiles[%d]", path, i), &f, "path"); err != nil {
			return Chat{}, err
		}
		c.ScratchFiles = append(c.ScratchFiles, f)
	}
	if len(w.Audit) > MaxAuditRows {
		return Chat{}, importError("%s.audit: %d rows; at most %d are imported", path, len(w.Audit), MaxAuditRows)
	}
	for i, r := range w.Audit {
		var a AuditRow
		if err := decodeObject(r, fmt.Sprintf("%s.audit[%d]", path, i), &a, "id", "decision", "decidedBy"); err != nil {
			return Chat{}, err
		}
		c.Audit = append(c.Audit, a)
	}
	return c, nil
}

var (
	roles    = []string{"system", "user", "assistant"}
	kinds    = []string{"text", "tool_results"}
	statuses = []string{"streaming", "complete", "interrupted", "error"}
	states   = []string{"pending", "approved", "running", "done", "error", "denied", "interrupted", "problem"}
)

func oneOf(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

func want(set []string) string {
	return strings.Join(set[:len(set)-1], ", ") + " or " + set[len(set)-1]
}

// Validate checks a bundle as an import needs it: known format and
// version, IDs present and unique, values from the known sets, every
// parent, leaf and call message inside its chat, no loops in the message
// tree. The first problem is returned, with its path.
func (b Bundle) Validate() error {
	if b.Format != Format {
		return importError("not an Airlock export: \"format\" is %q, want %q", b.Format, Format)
	}
	if b.Version != Version {
		return importError("unsupported export version %d (this Airlock reads version %d)", b.Version, Version)
	}
	seen := map[string]string{} // id → path, across the bundle: IDs are global
	unique := func(id, path string) error {
		if strings.TrimSpace(id) == "" {
			return importError("%s.id: empty", path)
		}
		if prev, ok := seen[id]; ok {
			return importError("%s.id: %q is also the id of %s", path, id, prev)
		}
		seen[id] = path
		return nil
	}
	for ci, c := range b.Chats {
		cp := fmt.Sprintf("chats[%d]", ci)
		if err := unique(c.ID, cp); err != nil {
			return err
		}
		switch c.Options.Paradigm {
		case "json", "xml", "vcp":
		default:
			return importError("%s.options.paradigm: unknown paradigm %q (want json, xml or vcp)", cp, c.Options.Paradigm)
		}
		switch c.Options.WorkspaceKind {
		case "scratch":
		case "folder", "overlay":
			if strings.TrimSpace(c.Options.WorkspaceDir) == "" {
				return importError("%s.options.workspaceDir: a %s workspace needs a folder", cp, c.Options.WorkspaceKind)
			}
		default:
			return importError("%s.options.workspaceKind: unknown workspace kind %q (want scratch, folder or overlay)", cp, c.Options.WorkspaceKind)
		}
		if _, ok := chat.ParseToolMode(c.Options.ToolMode); !ok && c.Options.ToolMode != "" {
			return importError("%s.options.toolMode: unknown tool mode %q (want text, native or auto)", cp, c.Options.ToolMode)
		}
		if err := chat.CheckServerList(c.Options.MCPServers); err != nil {
			return importError("%s.options.mcpServers: %s", cp, err.Error())
		}
		if err := checkLimits(cp, c); err != nil {
			return err
		}
		parent := make(map[string]string, len(c.Messages))
		for mi, m := range c.Messages {
			mp := fmt.Sprintf("%s.messages[%d]", cp, mi)
			if err := unique(m.ID, mp); err != nil {
				return err
			}
			switch {
			case !oneOf(m.Role, roles):
				return importError("%s.role: unknown role %q (want %s)", mp, m.Role, want(roles))
			case !oneOf(m.Kind, kinds):
				return importError("%s.kind: unknown kind %q (want %s)", mp, m.Kind, want(kinds))
			case !oneOf(m.Status, statuses):
				return importError("%s.status: unknown status %q (want %s)", mp, m.Status, want(statuses))
			}
			parent[m.ID] = m.ParentID
		}
		for mi, m := range c.Messages {
			if _, ok := parent[m.ParentID]; m.ParentID != "" && !ok {
				return importError("%s.messages[%d].parentId: no message %q in this chat", cp, mi, m.ParentID)
			}
		}
		// Every path up must reach a first message: no loops.
		done := make(map[string]bool, len(parent))
		for mi, m := range c.Messages {
			onWay := map[string]bool{}
			for id := m.ID; id != "" && !done[id]; id = parent[id] {
				if onWay[id] {
					return importError("%s.messages[%d].parentId: the messages' parents loop (through %q)", cp, mi, id)
				}
				onWay[id] = true
			}
			for id := range onWay {
				done[id] = true
			}
		}
		if _, ok := parent[c.LeafID]; c.LeafID != "" && !ok {
			return importError("%s.leafId: no message %q in this chat", cp, c.LeafID)
		}
		callMessage := make(map[string]string, len(c.Calls))
		for li, cl := range c.Calls {
			lp := fmt.Sprintf("%s.calls[%d]", cp, li)
			if err := unique(cl.ID, lp); err != nil {
				return err
			}
			callMessage[cl.ID] = cl.MessageID
			// Nobody has decided a pending call: one that names a decider
			// was edited by hand (Airlock never writes one), so it is
			// refused rather than quietly believed or cleared.
			if cl.State == string(chat.CallPending) && cl.Decision != nil && (cl.Decision.By != "" || cl.Decision.At != 0) {
				return importError("%s.decision: the call is pending, so nobody has decided it, but the file says %q did", lp, cl.Decision.By)
			}
			if _, ok := parent[cl.MessageID]; !ok {
				return importError("%s.messageId: no message %q in this chat", lp, cl.MessageID)
			}
			if !oneOf(cl.State, states) {
				return importError("%s.state: unknown state %q (want %s)", lp, cl.State, want(states))
			}
			for field, v := range map[string]json.RawMessage{"arguments": cl.Arguments, "edited": cl.Edited, "preview": cl.Preview} {
				if len(bytes.TrimSpace(v)) > 0 && !json.Valid(v) {
					return importError("%s.%s: not valid JSON", lp, field)
				}
			}
		}
		if err := validateAudit(cp, c.Audit, callMessage, parent, unique); err != nil {
			return err
		}
		paths := map[string]bool{}
		for fi, f := range c.ScratchFiles {
			fp := fmt.Sprintf("%s.scratchFiles[%d]", cp, fi)
			if strings.TrimSpace(f.Path) == "" {
				return importError("%s.path: empty", fp)
			}
			// The same rule as every tool's path: relative, no "..", no
			// control characters (toStore stores the cleaned form).
			clean, err := workspace.CleanPath(f.Path)
			if err != nil {
				return importError("%s.path: %s", fp, err.Error())
			}
			if clean == "." {
				return importError("%s.path: %q names the workspace itself, not a file in it", fp, f.Path)
			}
			if paths[clean] {
				return importError("%s.path: %q appears twice", fp, f.Path)
			}
			paths[clean] = true
			switch f.Encoding {
			case "", "utf-8":
			case "base64":
				if _, err := base64.StdEncoding.DecodeString(f.Content); err != nil {
					return importError("%s.content: not valid base64", fp)
				}
			default:
				return importError("%s.encoding: unknown encoding %q (want utf-8 or base64)", fp, f.Encoding)
			}
		}
	}
	return nil
}
