package demomodel

import (
	"encoding/json"
	"testing"

	"airlock/backend/paradigm"
	"airlock/backend/tools"
	"airlock/backend/tools/code"
)

// "run a script" proposes run_python with a short script (JavaScript when
// asked), in every paradigm and in Chinese too.
func TestCodeScriptPhrase(t *testing.T) {
	box, err := tools.NewToolbox(append(code.Tools(code.Config{}), tools.Builtins()...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, pid := range []string{"json", "xml", "vcp"} {
		par, _ := paradigm.Get(pid)
		system := PromptMessage{Role: "system", Content: par.Prompt(box.Specs())}
		for say, want := range map[string]struct{ tool, code string }{
			"run a script":       {"run_python", demoPython},
			"please run python":  {"run_python", demoPython},
			"运行一个脚本":             {"run_python", demoPython},
			"run a javascript":   {"run_javascript", demoJavaScript},
			"write a js script!": {"run_javascript", demoJavaScript},
		} {
			text := choose(Prompt{Messages: []PromptMessage{system, {Role: "user", Content: say}}, LastUser: say}).Text
			res := paradigm.Scan(text, paradigm.Options{Paradigm: pid, Registry: box.Registry()})
			if len(res.Problems) != 0 || len(res.Calls) != 1 || res.Calls[0].Name != want.tool {
				t.Fatalf("%s %q: %+v", pid, say, res)
			}
			var args struct{ Code string }
			if err := json.Unmarshal(res.Calls[0].Arguments, &args); err != nil || args.Code != want.code {
				t.Fatalf("%s %q: arguments %s", pid, say, res.Calls[0].Arguments)
			}
		}
	}
}
