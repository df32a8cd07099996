package demomodel

import (
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/paradigm"
	"airlock/backend/tools"
)

// The demo's tool scripts write calls the way each paradigm teaches, so the
// scanner finds exactly the scripted calls, and it reads results back.
func TestToolScriptsPerParadigm(t *testing.T) {
	box, err := tools.NewToolbox(tools.Builtins()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range []string{"json", "xml", "vcp"} {
		par, _ := paradigm.Get(pid)
		system := PromptMessage{Role: "system", Content: par.Prompt(box.Specs())}
		ask := func(user string) string {
			return choose(Prompt{Messages: []PromptMessage{system, {Role: "user", Content: user}}, LastUser: user}).Text
		}
		cases := []struct {
			say   string
			names []string
		}{
			{"What time is it?", []string{"get_current_time"}},
			{"please calculate 17*23", []string{"calculate"}},
			{"time and calc 2+2", []string{"get_current_time", "calculate"}},
		}
		for _, c := range cases {
			res := paradigm.Scan(ask(c.say), paradigm.Options{Paradigm: pid, Registry: box.Registry()})
			if len(res.Problems) != 0 || len(res.Calls) != len(c.names) {
				t.Fatalf("%s %q: %+v", pid, c.say, res)
			}
			for i, n := range c.names {
				if res.Calls[i].Name != n {
					t.Errorf("%s %q: call %d is %s", pid, c.say, i, res.Calls[i].Name)
				}
			}
		}
		if res := paradigm.Scan(ask("please calculate 17*23"), paradigm.Options{Paradigm: pid, Registry: box.Registry()}); string(res.Calls[0].Arguments) != `{"expression":"17*23"}` {
			t.Errorf("%s: expression %s", pid, res.Calls[0].Arguments)
		}
		if res := paradigm.Scan(ask("show me something broken"), paradigm.Options{Paradigm: pid, Registry: box.Registry()}); len(res.Problems) != 1 {
			t.Errorf("%s broken: %+v", pid, res)
		}

		results := par.FormatResults([]chat.ToolResult{
			{CallID: "call_1", Name: "calculate", Status: chat.ToolSuccess, Content: "391"},
			{CallID: "call_2", Name: "get_current_time", Status: chat.ToolDenied, Content: "The user denied this call. Reason: private"},
		})
		got := choose(Prompt{Messages: []PromptMessage{system, {Role: "user", Content: "calc"}, {Role: "user", Content: results}}, LastUser: results}).Text
		if !strings.Contains(got, "**calculate** returned `391`") || !strings.Contains(got, "You denied **get_current_time**") || !strings.Contains(got, "Reason: private") {
			t.Errorf("%s: reading results: %s", pid, got)
		}
	}
}

func TestNoToolsNoCalls(t *testing.T) {
	got := choose(Prompt{Messages: []PromptMessage{{Role: "user", Content: "what time is it"}}, LastUser: "what time is it"}).Text
	if strings.Contains(got, "tool_calls") || !strings.Contains(got, "demo model") {
		t.Fatalf("without tools in the prompt the demo must answer in prose: %s", got)
	}
}

func TestFilesScriptWalksThroughTheWorkspaceTools(t *testing.T) {
	box, _ := tools.NewToolbox(tools.Builtins()...)
	par, _ := paradigm.Get("json")
	msgs := []PromptMessage{{Role: "system", Content: par.Prompt(box.Specs())}, {Role: "user", Content: "work with files please"}}
	var names []string
	for step := 0; step < 6; step++ {
		last := msgs[len(msgs)-1].Content
		reply := choose(Prompt{Messages: msgs, LastUser: last}).Text
		res := paradigm.Scan(reply, paradigm.Options{Paradigm: "json"})
		if len(res.Calls) == 0 {
			if !strings.Contains(reply, "notes.md") {
				t.Fatalf("final answer: %s", reply)
			}
			break
		}
		names = append(names, res.Calls[0].Name)
		results := par.FormatResults([]chat.ToolResult{{CallID: res.Calls[0].ID, Name: res.Calls[0].Name, Status: chat.ToolSuccess, Content: "ok"}})
		msgs = append(msgs, PromptMessage{Role: "assistant", Content: reply}, PromptMessage{Role: "user", Content: results})
	}
	if strings.Join(names, ",") != "list_directory,write_file,edit_file,read_file" {
		t.Fatalf("steps: %v", names)
	}
}

// "mcp echo …" calls an MCP server's echo tool when the prompt offers one,
// and says how to get one when it does not.
func TestMCPEchoScript(t *testing.T) {
	echo := tools.Tool{Spec: tools.Spec{Name: "mcp__everything__echo", Description: "Echoes back the input",
		Parameters: []byte(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)},
		Kind: tools.KindMCP, Server: "everything", Run: tools.TextRun(nil)}
	box, err := tools.NewToolbox(append(tools.Builtins(), echo)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range []string{"json", "xml", "vcp"} {
		par, _ := paradigm.Get(pid)
		system := PromptMessage{Role: "system", Content: par.Prompt(box.Specs())}
		say := "Please MCP echo Grüße, 世界"
		got := choose(Prompt{Messages: []PromptMessage{system, {Role: "user", Content: say}}, LastUser: say}).Text
		res := paradigm.Scan(got, paradigm.Options{Paradigm: pid, Registry: box.Registry()})
		if len(res.Calls) != 1 || res.Calls[0].Name != "mcp__everything__echo" || string(res.Calls[0].Arguments) != `{"message":"Grüße, 世界"}` {
			t.Errorf("%s: %+v from %s", pid, res, got)
		}
	}
	builtins, _ := tools.NewToolbox(tools.Builtins()...)
	par, _ := paradigm.Get("json")
	system := PromptMessage{Role: "system", Content: par.Prompt(builtins.Specs())}
	got := choose(Prompt{Messages: []PromptMessage{system, {Role: "user", Content: "mcp echo hi"}}, LastUser: "mcp echo hi"}).Text
	if !strings.Contains(got, "Settings → Tools") || strings.Contains(got, "tool_calls") {
		t.Errorf("without an MCP echo tool: %s", got)
	}
}

func TestMCPCallAnyTool(t *testing.T) {
	p := Prompt{Tools: []string{"mcp__everything__trigger-long-running-operation", "mcp__everything__echo"},
		LastUser: `mcp call trigger-long-running-operation {"duration": 2, "steps": 4}`}
	p.Messages = []PromptMessage{{Role: "user", Content: p.LastUser}}
	name, args := mcpCall(p)
	if name != "mcp__everything__trigger-long-running-operation" || args["steps"] != float64(4) {
		t.Fatalf("got %q %v", name, args)
	}
	p.LastUser = "mcp call nothing-like-it"
	if name, _ := mcpCall(p); name != "" {
		t.Fatalf("unknown tool matched %q", name)
	}
}
