package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/tools/files"
	"airlock/backend/workspace"
)

// A tool whose preview names the text it would write.
func previewTools(t *testing.T) *tools.Toolbox {
	t.Helper()
	box, err := tools.NewToolbox(tools.Tool{
		Spec: tools.Spec{Name: "put", Description: "Write text.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		Preview: func(_ tools.Env, a json.RawMessage) (json.RawMessage, error) {
			var v struct{ Text string }
			_ = json.Unmarshal(a, &v)
			return json.Marshal(map[string]string{"diff": "+" + v.Text})
		},
		Run: tools.TextRun(func(_ context.Context, _ tools.Env, a json.RawMessage) (string, error) { return "ok", nil }),
	})
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// The diff follows an edit before it runs, and the finished card keeps the
// change that ran (the user's), not the model's.
func TestEditedCallsPreviewTheChangeThatRuns(t *testing.T) {
	l := newLoopWith(t, "", "json", previewTools(t), written(t, "json", tc("call_1", "put", `{"text":"model"}`)), "done")
	l.send("write")
	c := l.waitCalls("a card", count(1))[0]
	if !strings.Contains(string(c.Preview), "+model") {
		t.Fatalf("first preview: %s", c.Preview)
	}
	ctx := context.Background()
	pv, err := l.eng.PreviewCall(ctx, c.ID, json.RawMessage(`{"text":"user"}`))
	if err != nil || !strings.Contains(string(pv), "+user") {
		t.Fatalf("preview of the edit: %s, %v", pv, err)
	}
	var ce *chat.Error
	if _, err := l.eng.PreviewCall(ctx, c.ID, json.RawMessage(`{"nope":1}`)); !errors.As(err, &ce) || ce.Code != "invalid_arguments" {
		t.Fatalf("a bad edit previews as %v", err)
	}
	if stored, _ := l.st.GetCall(ctx, c.ID); !strings.Contains(string(stored.Preview), "+model") {
		t.Fatalf("a preview of an edit was stored: %s", stored.Preview)
	}
	if _, err := l.eng.Approve(ctx, c.ID, json.RawMessage(`{"text":"user"}`)); err != nil {
		t.Fatal(err)
	}
	done := l.waitCalls("the run", func(cs []chat.Call) bool { return len(cs) == 1 && cs[0].State == chat.CallDone })[0]
	if !strings.Contains(string(done.Preview), "+user") {
		t.Fatalf("the finished card shows %s, not the change that ran", done.Preview)
	}
}

// A call whose path leaves the workspace says so on its card before Run,
// and an edit that leads out is told the same (issue 30, item 14). Before,
// a read showed nothing and a write "could not preview".
func TestCardSaysBeforeRunThatAPathLeavesTheWorkspace(t *testing.T) {
	box, err := tools.NewToolbox(files.Tools()...)
	if err != nil {
		t.Fatal(err)
	}
	l := newLoopWith(t, "", "json", box, written(t, "json",
		tc("call_1", "read_file", `{"path":"../../etc/passwd"}`),
		tc("call_2", "write_file", `{"path":"/etc/hosts","content":"x"}`),
		tc("call_3", "read_file", `{"path":"notes.md"}`)), "done")
	w := workspace.NewScratch()
	l.eng.envFor = func(context.Context, string) (tools.Env, error) {
		return tools.Env{FS: w.FS(), Resolve: w.Resolve}, nil
	}
	l.send("read")
	cs := l.waitCalls("the cards", count(3))
	for _, c := range cs[:2] {
		var p struct{ Refused, Code, Argument string }
		if err := json.Unmarshal(c.Preview, &p); err != nil || p.Code != "path_outside" || p.Argument != "path" || p.Refused == "" {
			t.Fatalf("%s: preview %s", c.Name, c.Preview)
		}
	}
	if strings.Contains(string(cs[2].Preview), "refused") {
		t.Fatalf("a path inside is not refused: %s", cs[2].Preview)
	}
	pv, err := l.eng.PreviewCall(context.Background(), cs[2].ID, json.RawMessage(`{"path":"../x"}`))
	if err != nil || !strings.Contains(string(pv), `"refused"`) {
		t.Fatalf("an edit leading out: %s %v", pv, err)
	}
}
