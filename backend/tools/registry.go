package tools

import (
	"airlock/backend/uitext"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Registry is an ordered set of tool specs with their schemas compiled once.
// It is read-only after NewRegistry, so safe for concurrent use.
type Registry struct {
	specs   []Spec
	exact   map[string]int
	loose   map[string]int // normalised name → index, -1 when ambiguous
	squash  map[string]int // separators removed → index, -1 when ambiguous
	schemas []*jsonschema.Schema
	shapes  []any    // the parameters schema, decoded, for coercion
	hints   []string // the expected arguments, for messages
}

// ErrUnknownTool is wrapped by the error Resolve and Validate return for a
// name no tool answers to.
var ErrUnknownTool = errors.New("unknown tool")

// NewRegistry checks and compiles the specs. Names must be unique, and
// every parameters schema must compile.
func NewRegistry(specs []Spec) (*Registry, error) {
	r := &Registry{
		specs:   append([]Spec(nil), specs...),
		exact:   map[string]int{},
		loose:   map[string]int{},
		squash:  map[string]int{},
		schemas: make([]*jsonschema.Schema, len(specs)),
		shapes:  make([]any, len(specs)),
		hints:   make([]string, len(specs)),
	}
	for i, s := range r.specs {
		if s.Name == "" {
			return nil, fmt.Errorf("tool %d has no name", i)
		}
		if _, dup := r.exact[s.Name]; dup {
			return nil, fmt.Errorf("tool %q is defined twice", s.Name)
		}
		r.exact[s.Name] = i
		addKey(r.loose, looseKey(s.Name), i)
		addKey(r.squash, squashKey(s.Name), i)
		if isNull(s.Parameters) {
			continue
		}
		sch, shape, err := compileSchema(s.Name, s.Parameters)
		if err != nil {
			return nil, err
		}
		r.schemas[i], r.shapes[i], r.hints[i] = sch, inlineRefs(shape, shape, 0), DescribeParams(s.Parameters)
	}
	return r, nil
}

func addKey(m map[string]int, k string, i int) {
	if k == "" {
		return
	}
	if _, ok := m[k]; ok {
		m[k] = -1
		return
	}
	m[k] = i
}

func compileSchema(name string, raw []byte) (*jsonschema.Schema, any, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, fmt.Errorf("tool %q: parameters are not valid JSON: %w", name, err)
	}
	doc = normalizeTypes(doc, 0)
	c := jsonschema.NewCompiler()
	loc := "airlock-tool:///" + schemaLocName(name) + ".json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, nil, fmt.Errorf("tool %q: %w", name, err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return nil, nil, fmt.Errorf("tool %q: parameters are not a valid JSON Schema: %w", name, err)
	}
	return sch, doc, nil
}

func schemaLocName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 0x80 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Specs returns the specs in their order.
func (r *Registry) Specs() []Spec { return append([]Spec(nil), r.specs...) }

// Names returns the tool names in order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.specs))
	for i, s := range r.specs {
		out[i] = s.Name
	}
	return out
}

// Lookup finds a tool by the name a model wrote, repairing it: surrounding
// quotes and spaces, a "functions."/"tools."/"default_api." prefix, case,
// and '-', '_', '.', ' ' used interchangeably (or left out: readFile finds
// read_file) all resolve, as long as only one tool matches.
func (r *Registry) Lookup(name string) (Spec, bool) {
	i := r.index(name)
	if i < 0 {
		return Spec{}, false
	}
	return r.specs[i], true
}

// Resolve is Lookup returning the canonical name, or an error written for
// the model that lists the tools it can use.
func (r *Registry) Resolve(name string) (string, error) {
	if i := r.index(name); i >= 0 {
		return r.specs[i].Name, nil
	}
	return "", &UnknownToolError{Name: name, Known: r.Names()}
}

func (r *Registry) index(name string) int {
	if r == nil {
		return -1
	}
	if i, ok := r.exact[name]; ok {
		return i
	}
	n := cleanName(name)
	for _, cand := range []string{n, stripPrefix(n)} {
		if i, ok := r.exact[cand]; ok {
			return i
		}
		if i, ok := r.loose[looseKey(cand)]; ok && i >= 0 {
			return i
		}
		if i, ok := r.squash[squashKey(cand)]; ok && i >= 0 {
			return i
		}
	}
	return -1
}

func cleanName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "\"'`“”‘’ \t\r\n")
	s = strings.TrimSuffix(s, "()")
	return strings.TrimSpace(s)
}

var namePrefixes = []string{"functions.", "function.", "tools.", "tool.", "default_api.", "api.", "functions:", "tools:", "functions/", "tools/"}

func stripPrefix(s string) string {
	for changed := true; changed; {
		changed = false
		low := strings.ToLower(s)
		for _, p := range namePrefixes {
			if strings.HasPrefix(low, p) && len(s) > len(p) {
				s, changed = s[len(p):], true
				break
			}
		}
	}
	return s
}

func looseKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case '-', ' ', '.':
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func squashKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case '-', ' ', '.', '_':
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// UnknownToolError says a name matches no tool.
type UnknownToolError struct {
	Name  string
	Known []string
}

func (e *UnknownToolError) Error() string { return e.UIText().English }

// UIText is the error's sentence, coded for the UI's language.
func (e *UnknownToolError) UIText() uitext.Text {
	name := strconv.Quote(e.Name)
	if len(e.Known) == 0 {
		return txtUnknownToolNone.With("name", name)
	}
	known, more := e.Known, 0
	if len(known) > 30 {
		known, more = known[:30], len(known)-30
	}
	var list any = strings.Join(known, ", ")
	if more > 0 {
		list = txtToolsAndMore.With("tools", strings.Join(known, ", "), "more", more)
	}
	if s := closest(e.Name, e.Known); s != "" {
		return txtUnknownToolSuggest.With("name", name, "suggest", strconv.Quote(s), "tools", list)
	}
	return txtUnknownTool.With("name", name, "tools", list)
}

func (e *UnknownToolError) Unwrap() error { return ErrUnknownTool }

// closest returns the known name nearest to name by edit distance, if it is
// near enough to be a likely typo.
func closest(name string, known []string) string {
	n := squashKey(stripPrefix(cleanName(name)))
	if n == "" || len(n) > 64 {
		return ""
	}
	best, bestD := "", 1<<30
	for _, k := range known {
		kk := squashKey(k)
		if len(kk) > 64 {
			continue
		}
		d := editDistance(n, kk)
		if d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= max(1, len(n)/3) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// typeAliases are type names that tool definitions written by hand (MCP
// servers, Python tool decorators) use for JSON Schema's.
var typeAliases = map[string]string{
	"float": "number", "double": "number", "int": "integer", "long": "integer", "bool": "boolean",
	"str": "string", "text": "string", "dict": "object", "map": "object", "list": "array", "tuple": "array",
}

// jsonTypes are the type names JSON Schema knows.
var jsonTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true, "object": true, "array": true, "null": true}

// aliasType maps a type name written by hand to JSON Schema's: "float" →
// number, "uint32" → integer, "list" → array; "" for a name it can't place.
func aliasType(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	switch {
	case jsonTypes[n]:
		return n
	case typeAliases[n] != "":
		return typeAliases[n]
	case strings.HasPrefix(n, "int") || strings.HasPrefix(n, "uint"):
		return "integer"
	case strings.HasPrefix(n, "float") || strings.HasPrefix(n, "decimal"):
		return "number"
	}
	return ""
}

// normalizeTypes rewrites the type names in a decoded schema that JSON
// Schema doesn't know ("float", "uint32", "list"), and drops the ones it
// can't place, so that a tool whose schema was written by hand works
// rather than failing to compile.
func normalizeTypes(v any, depth int) any {
	if depth > 64 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if k == "type" {
				switch tv := e.(type) {
				case string:
					if a := aliasType(tv); a != "" {
						t[k] = a
					} else {
						delete(t, k)
					}
				case []any:
					kept := tv[:0]
					for _, x := range tv {
						if xs, ok := x.(string); ok && aliasType(xs) != "" {
							kept = append(kept, aliasType(xs))
						}
					}
					t[k] = kept
				}
				continue
			}
			t[k] = normalizeTypes(e, depth+1)
		}
	case []any:
		for i, e := range t {
			t[i] = normalizeTypes(e, depth+1)
		}
	}
	return v
}

// inlineRefs returns the schema with its local references ("$ref":
// "#/$defs/Location", as Pydantic writes them) replaced by what they point
// to, for coercion to see the types. Depth-bounded, so a recursive
// definition stops rather than loops. The compiled schema still validates
// with the references as written.
func inlineRefs(v, root any, depth int) any {
	if depth > 16 {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["$ref"].(string); ok && strings.HasPrefix(ref, "#/") {
			if target := resolvePointer(root, ref[2:]); target != nil {
				return inlineRefs(target, root, depth+1)
			}
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = inlineRefs(e, root, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = inlineRefs(e, root, depth+1)
		}
		return out
	}
	return v
}

// resolvePointer follows a JSON pointer ("$defs/Location") from root.
func resolvePointer(root any, ptr string) any {
	cur := root
	for _, part := range strings.Split(ptr, "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		if cur, ok = m[part]; !ok {
			return nil
		}
	}
	return cur
}
