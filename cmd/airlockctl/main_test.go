package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

type output struct {
	Calls []struct {
		ID        string         `json:"id"`
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
		Format    string         `json:"format"`
	} `json:"calls"`
	Problems []struct {
		Message string `json:"message"`
		Raw     string `json:"raw"`
	} `json:"problems"`
}

func decode(t *testing.T, s string) output {
	t.Helper()
	var o output
	if err := json.Unmarshal([]byte(s), &o); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, s)
	}
	return o
}

const toolsJSON = `[{"name":"read_file","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}}]`

func TestScanNoCallsPrintsEmptyArrays(t *testing.T) {
	code, out, _ := runCLI(t, "Hello, no tools here.", "scan", "--compact")
	if code != 0 || strings.TrimSpace(out) != `{"calls":[],"problems":[]}` {
		t.Errorf("code %d, out %q", code, out)
	}
}

func TestScanStdinAndFlags(t *testing.T) {
	msg := "<tool_call>{\"name\": \"Read-File\", \"arguments\": {\"path\": \"a.md\", \"limit\": \"5\"}}</tool_call>"
	// Without tools: names and values as written.
	code, out, _ := runCLI(t, msg, "scan", "-")
	o := decode(t, out)
	if code != 0 || len(o.Calls) != 1 || o.Calls[0].Name != "Read-File" || o.Calls[0].Arguments["limit"] != "5" || o.Calls[0].ID == "" || o.Calls[0].Format != "hermes" {
		t.Fatalf("code %d: %s", code, out)
	}
	// With tools, flags after the file argument.
	dir := t.TempDir()
	toolsPath := filepath.Join(dir, "tools.json")
	msgPath := filepath.Join(dir, "msg.txt")
	os.WriteFile(toolsPath, []byte(toolsJSON), 0o644)
	os.WriteFile(msgPath, []byte(msg+"\n<tool_call>{\"name\": \"nope\", \"arguments\": {}}</tool_call>"), 0o644)
	code, out, _ = runCLI(t, "", "scan", msgPath, "--tools", toolsPath, "--paradigm", "xml")
	o = decode(t, out)
	if code != 0 || len(o.Calls) != 1 || o.Calls[0].Name != "read_file" || o.Calls[0].Arguments["limit"] != float64(5) {
		t.Fatalf("code %d: %s", code, out)
	}
	if len(o.Problems) != 1 || !strings.Contains(o.Problems[0].Message, "nope") || o.Problems[0].Raw == "" {
		t.Fatalf("problems: %s", out)
	}
}

func TestScanParadigmSwitch(t *testing.T) {
	msg := "<<<[TOOL_REQUEST]>>>\ntool_name:「始」read_file「末」,\npath:「始」x「末」\n<<<[END_TOOL_REQUEST]>>>"
	_, out, _ := runCLI(t, msg, "scan", "--paradigm", "json", "--others=false")
	if o := decode(t, out); len(o.Calls) != 0 {
		t.Errorf("json without others read VCP: %s", out)
	}
	_, out, _ = runCLI(t, msg, "scan", "--paradigm", "vcp", "--others=false")
	if o := decode(t, out); len(o.Calls) != 1 {
		t.Errorf("vcp: %s", out)
	}
	_, out, _ = runCLI(t, msg, "scan")
	if o := decode(t, out); len(o.Calls) != 1 {
		t.Errorf("auto: %s", out)
	}
}

func TestScanVerbose(t *testing.T) {
	_, out, _ := runCLI(t, "<think>x</think><tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>", "scan", "-v")
	if !strings.Contains(out, `"raw"`) || !strings.Contains(out, `"reasoning"`) || !strings.Contains(out, `"start"`) {
		t.Errorf("%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	cases := [][]string{
		{},
		{"frobnicate"},
		{"scan", "--paradigm", "yaml"},
		{"scan", "--bogus"},
		{"scan", "a", "b"},
	}
	for _, args := range cases {
		if code, _, errOut := runCLI(t, "", args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: code %d, stderr %q", args, code, errOut)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"not":"specs"}`), 0o644)
	if code, _, _ := runCLI(t, "", "scan", "--tools", bad); code != exitUsage {
		t.Errorf("bad tools file: code %d", code)
	}
	if code, _, _ := runCLI(t, "", "scan", filepath.Join(dir, "missing.txt")); code != exitUnreadable {
		t.Errorf("missing input: code %d", code)
	}
	if code, _, _ := runCLI(t, "", "scan", "--tools", filepath.Join(dir, "missing.json")); code != exitUnreadable {
		t.Errorf("missing tools: code %d", code)
	}
	if code, out, _ := runCLI(t, "", "help"); code != 0 || !strings.Contains(out, "scan") {
		t.Errorf("help: %d %q", code, out)
	}
	if code, _, _ := runCLI(t, "", "scan", "-h"); code != 0 {
		t.Errorf("scan -h: %d", code)
	}
}

// The real binary, as acceptance runs it.
func TestGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "airlockctl")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "scan", "--paradigm", "auto")
	cmd.Stdin = strings.NewReader("[TOOL_CALLS]read_file[ARGS]{\"path\": \"a\"}")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if o := decode(t, string(out)); len(o.Calls) != 1 || o.Calls[0].Name != "read_file" {
		t.Errorf("%s", out)
	}
}

// A call the message ended without its closers is printed "repaired": true;
// a complete one has no such key; a call cut after its name is a problem.
func TestScanRepaired(t *testing.T) {
	_, out, _ := runCLI(t, `<tool_call>{"name": "read_file", "arguments": {"path": "a.md"}}`, "scan", "--compact")
	if !strings.Contains(out, `"repaired":true`) || len(decode(t, out).Calls) != 1 {
		t.Fatalf("closers missing: %s", out)
	}
	_, out, _ = runCLI(t, `<tool_call>{"name": "read_file", "arguments": {"path": "a.md"}}</tool_call>`, "scan", "--compact")
	if strings.Contains(out, "repaired") || len(decode(t, out).Calls) != 1 {
		t.Fatalf("complete: %s", out)
	}
	_, out, _ = runCLI(t, "<tool_call>\n<function=read_file>\n", "scan", "--compact")
	if o := decode(t, out); len(o.Calls) != 0 || len(o.Problems) != 1 || !strings.Contains(o.Problems[0].Message, "cut off") {
		t.Fatalf("cut after the name: %s", out)
	}
}
