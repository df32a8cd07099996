package tools

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const specsJSON = `[
 {"name":"read_file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"],"additionalProperties":false}},
 {"name":"write_file","description":"Write a file.","parameters":{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"mode":{"enum":["create","overwrite"]}},"required":["path","content"]}},
 {"name":"search","description":"Search.","parameters":{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"number"},"exact":{"type":"boolean"},"tags":{"type":"array","items":{"type":"integer"}},"opts":{"type":"object","properties":{"deep":{"type":"boolean"}}},"since":{"type":["string","null"]}}}},
 {"name":"now","description":"The time."}
]`

func registry(t *testing.T) *Registry {
	t.Helper()
	specs, err := ParseSpecs([]byte(specsJSON))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegistry(specs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseSpecsVariants(t *testing.T) {
	for _, in := range []string{
		`[{"name":"a","description":"d","parameters":{"type":"object"}}]`,
		`[{"type":"function","function":{"name":"a","description":"d","parameters":{"type":"object"}}}]`,
		`{"tools":[{"name":"a","description":"d","input_schema":{"type":"object"}}]}`,
	} {
		specs, err := ParseSpecs([]byte(in))
		if err != nil || len(specs) != 1 || specs[0].Name != "a" || string(specs[0].Parameters) != `{"type":"object"}` {
			t.Errorf("%s: %+v %v", in, specs, err)
		}
	}
	for _, bad := range []string{`{}`, `[{"description":"no name"}]`, `nope`, `{"tools":5}`} {
		if _, err := ParseSpecs([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestLoadSpecsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(path, []byte(specsJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	specs, err := LoadSpecsFile(path)
	if err != nil || len(specs) != 4 {
		t.Fatal(specs, err)
	}
	if _, err := LoadSpecsFile(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestNewRegistryErrors(t *testing.T) {
	if _, err := NewRegistry([]Spec{{Name: "a"}, {Name: "a"}}); err == nil {
		t.Error("duplicate names accepted")
	}
	if _, err := NewRegistry([]Spec{{Name: "a", Parameters: json.RawMessage(`{"type": 5}`)}}); err == nil {
		t.Error("bad schema accepted")
	}
	if _, err := NewRegistry([]Spec{{Name: ""}}); err == nil {
		t.Error("empty name accepted")
	}
}

func TestLookupRepairsNames(t *testing.T) {
	r := registry(t)
	for in, want := range map[string]string{
		"read_file": "read_file", "Read_File": "read_file", "read-file": "read_file", "READ FILE": "read_file",
		"functions.read_file": "read_file", "default_api.read_file": "read_file", "tools.write-file": "write_file",
		"readFile": "read_file", `"read_file"`: "read_file", " read_file ": "read_file", "read_file()": "read_file",
		"functions.functions.now": "now",
	} {
		s, ok := r.Lookup(in)
		if !ok || s.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", in, s.Name, ok, want)
		}
	}
	for _, in := range []string{"", "reed_file", "file", "functions."} {
		if s, ok := r.Lookup(in); ok {
			t.Errorf("Lookup(%q) found %q", in, s.Name)
		}
	}
	var nilReg *Registry
	if _, ok := nilReg.Lookup("a"); ok {
		t.Error("nil registry found a tool")
	}
}

func TestAmbiguousNamesNeedExactMatch(t *testing.T) {
	r, err := NewRegistry([]Spec{{Name: "read_file"}, {Name: "read-file"}})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := r.Lookup("read-file"); !ok || s.Name != "read-file" {
		t.Errorf("exact match lost: %v", s)
	}
	if _, ok := r.Lookup("READ_FILE"); ok {
		t.Error("ambiguous repair accepted")
	}
}

func TestResolveUnknown(t *testing.T) {
	r := registry(t)
	_, err := r.Resolve("reed_file")
	if !errors.Is(err, ErrUnknownTool) || !strings.Contains(err.Error(), `Did you mean "read_file"`) || !strings.Contains(err.Error(), "Available tools: read_file, write_file, search, now") {
		t.Errorf("%v", err)
	}
	empty, _ := NewRegistry(nil)
	if _, err := empty.Resolve("x"); err == nil || !strings.Contains(err.Error(), "No tools") {
		t.Errorf("%v", err)
	}
}

func TestValidateCoerces(t *testing.T) {
	r := registry(t)
	cases := []struct{ tool, in, want string }{
		{"read_file", `{"path":"a","limit":"10"}`, `{"path":"a","limit":10}`},
		{"read_file", `{"path":"a","limit":10.0}`, `{"path":"a","limit":10}`},
		{"read_file", `{"path":42}`, `{"path":"42"}`},
		{"search", `{"q":"x","n":"2.5","exact":"TRUE","tags":"[1, 2]","opts":"{\"deep\": \"true\"}"}`, `{"q":"x","n":2.5,"exact":true,"tags":[1,2],"opts":{"deep":true}}`},
		{"search", `{"tags":["1","2"]}`, `{"tags":[1,2]}`},
		{"search", `{"since":"null"}`, `{"since":null}`}, // text "null" where null is allowed (XML-ish formats write everything as text)
		{"search", `{"tags":"[1, 2,]"}`, `{"tags":[1,2]}`},
		{"now", `{}`, `{}`},
		{"now", ``, `{}`},
		{"now", `{"anything":1}`, `{"anything":1}`},
	}
	for _, c := range cases {
		name, out, err := r.Validate(c.tool, json.RawMessage(c.in))
		if err != nil || name != c.tool || string(out) != c.want {
			t.Errorf("Validate(%s, %s) = %s, %s, %v; want %s", c.tool, c.in, name, out, err, c.want)
		}
	}
}

func TestValidateErrors(t *testing.T) {
	r := registry(t)
	cases := []struct{ tool, in, field, msg string }{
		{"read_file", `{}`, "path", `missing required argument "path"`},
		{"read_file", `{"path":"a","limit":"ten"}`, "limit", `argument "limit" must be integer, not string`},
		{"read_file", `{"path":"a","x":1}`, "", `unknown argument "x"`},
		{"write_file", `{"path":"a","content":"c","mode":"append"}`, "mode", `argument "mode" must be one of "create", "overwrite"`},
		{"search", `{"opts":{"deep":"maybe"}}`, "opts.deep", `argument "opts.deep" must be boolean`},
	}
	for _, c := range cases {
		_, _, err := r.Validate(c.tool, json.RawMessage(c.in))
		var ae *ArgumentError
		if !errors.As(err, &ae) {
			t.Errorf("%s %s: %v", c.tool, c.in, err)
			continue
		}
		if ae.Field != c.field || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "Expected arguments:") {
			t.Errorf("%s %s: field %q, %v", c.tool, c.in, ae.Field, err)
		}
	}
	if _, _, err := r.Validate("read_file", json.RawMessage(`[1]`)); err == nil {
		t.Error("array arguments accepted")
	}
	if _, _, err := r.Validate("read_file", json.RawMessage(`{`)); err == nil {
		t.Error("broken JSON accepted")
	}
	if _, _, err := r.Validate("nope", json.RawMessage(`{}`)); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown tool: %v", err)
	}
}

func TestDescribeParams(t *testing.T) {
	got := DescribeParams(json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"},"x":{}},"required":["path"]}`))
	if got != "path (string, required), limit (integer), x (any)" {
		t.Errorf("%q", got)
	}
}

func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{"path":"a","limit":"1"}`, `{"q":"x","tags":"[1,","opts":"{"}`, `{}`, `[]`, `"x"`, `{"path":{"a":[1,{"b":null}]}}`} {
		f.Add("read_file", s)
		f.Add("search", s)
	}
	specs, _ := ParseSpecs([]byte(specsJSON))
	r, err := NewRegistry(specs)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, tool, args string) {
		name, out, err := r.Validate(tool, json.RawMessage(args))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if _, ok := r.Lookup(name); !ok {
			t.Fatalf("validated an unknown tool %q", name)
		}
		var obj map[string]any
		if json.Unmarshal(out, &obj) != nil || obj == nil {
			t.Fatalf("output is not an object: %s", out)
		}
		// Coercion is idempotent: valid output validates to itself.
		_, again, err := r.Validate(name, out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("not idempotent: %s → %s (%v)", out, again, err)
		}
	})
}
