package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
	"airlock/backend/tools"
	"airlock/backend/workspace"
)

// A chat whose folder vanished since it was chosen never works anywhere
// else: the turn stops before the model is asked, and the answer says why
// and what to do (issue 30, item 1). Before, the workspace opened earlier
// was kept (or a new chat fell back to Scratch) and the model was asked.
func TestVanishedFolderStopsTheTurn(t *testing.T) {
	ctx := context.Background()
	m := &fakeModel{deltas: []llm.Delta{{Text: "working"}}, gotReq: make(chan llm.Request, 4)}
	eng, st, ev, c := setup(t, m, nil)
	mgr := workspace.NewManager(st)
	t.Cleanup(mgr.Close)
	eng.envFor = func(ctx context.Context, chatID string) (_ tools.Env, err error) {
		ch, err := st.GetChat(ctx, chatID)
		if err != nil {
			return tools.Env{}, err
		}
		return mgr.Env(ctx, chatID, ch.ChatOptions)
	}
	dir := filepath.Join(t.TempDir(), "project")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	o := c.ChatOptions
	o.WorkspaceKind, o.WorkspaceDir = string(workspace.KindFolder), dir
	if _, err := st.SetChatOptions(ctx, c.ID, o); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Send(ctx, c.ID, "first"); err != nil {
		t.Fatal(err)
	}
	<-m.gotReq
	if end := waitEnd(t, ev); end.Message.Status != chat.StatusComplete {
		t.Fatalf("with the folder there: %+v", end.Message)
	}

	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	msgs, err := eng.Send(ctx, c.ID, "second")
	if err != nil || len(msgs) != 2 {
		t.Fatalf("send: %v %+v", err, msgs)
	}
	end := waitEnd(t, ev)
	if end.Message.Status != chat.StatusError || end.Message.ErrorCode != CodeWorkspaceUnavailable ||
		!strings.Contains(end.Message.ErrorMessage, dir) || !strings.Contains(end.Message.ErrorMessage, "Scratch") {
		t.Fatalf("end: %+v", end.Message)
	}
	select {
	case <-m.gotReq:
		t.Fatal("the model was asked although the chat's folder is gone")
	default:
	}
	stored, _ := st.GetMessage(ctx, msgs[1].ID)
	if stored.Status != chat.StatusError || stored.ErrorCode != CodeWorkspaceUnavailable {
		t.Fatalf("the error is not kept on the chat: %+v", stored)
	}
	// The sentence is kept coded for the UI's language, its reason too.
	tx := stored.ErrorText
	if tx == nil || tx.Code != "workspace_unavailable" || tx.English != stored.ErrorMessage {
		t.Fatalf("error text = %+v", tx)
	}
	reason, ok := tx.Params["reason"].(map[string]any)
	if !ok || reason["code"] != "ws_folder_missing" || reason["params"].(map[string]any)["folder"] != dir {
		t.Fatalf("reason = %#v", tx.Params["reason"])
	}
	got, _ := st.GetChat(ctx, c.ID)
	if got.WorkspaceKind != string(workspace.KindFolder) || got.WorkspaceDir != dir {
		t.Fatalf("the chat's workspace changed by itself: %+v", got.ChatOptions)
	}
}
