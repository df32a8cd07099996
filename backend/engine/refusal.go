package engine

import (
	"encoding/json"

	"airlock/backend/chat"
	"airlock/backend/tools"
	"airlock/backend/uitext"
)

// A call whose path leaves the workspace (or is not a path at all) is
// refused when it runs. Its card says so before Run: the preview is then
// {"refused": why, "code": ...} instead of what the call would change.

// refusedCodes are the path errors a run would be refused with.
var refusedCodes = map[string]bool{"path_outside": true, "path_invalid": true}

// pathRefusal is why running t with args would be refused for its paths (nil
// when they all stay in the workspace, or cannot be told here).
func pathRefusal(t tools.Tool, env tools.Env, args json.RawMessage) json.RawMessage {
	if env.Resolve == nil || len(t.PathArgs) == 0 {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return nil
	}
	for _, name := range t.PathArgs {
		p, ok := m[name].(string)
		if !ok {
			continue
		}
		if _, err := env.Resolve(p); err != nil && refusedCodes[errorCode(err)] {
			b, _ := json.Marshal(struct {
				Refused  string       `json:"refused"`
				Code     string       `json:"code"`
				Argument string       `json:"argument"`
				Text     *uitext.Text `json:"text,omitempty"`
			}{err.Error(), errorCode(err), name, codedText(err)})
			return b
		}
	}
	return nil
}

// markRefusals sets the refusal of each pending call whose paths leave the
// workspace; previewAll then leaves those calls alone.
func markRefusals(box *tools.Toolbox, env tools.Env, calls []chat.Call) {
	for i, cl := range calls {
		if t, ok := box.Get(cl.Name); ok && cl.State == chat.CallPending {
			if r := pathRefusal(t, env, cl.Arguments); r != nil {
				calls[i].Preview = r
			}
		}
	}
}
