package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/demomodel"
	"airlock/backend/llm"
	"airlock/backend/store"
	"airlock/backend/tools"
)

// imageEnv is an engine talking HTTP to the demo model, keeping every
// request body as sent.
type imageEnv struct {
	t      *testing.T
	eng    *Engine
	st     *store.Store
	chat   chat.Chat
	mu     sync.Mutex
	bodies []string
	notes  []bridge.Notice
}

func newImageEnv(t *testing.T, model string, mode chat.ToolMode) *imageEnv {
	t.Helper()
	env := &imageEnv{t: t}
	demo := demomodel.New(demomodel.Options{Models: demomodel.DefaultModels()})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			env.mu.Lock()
			env.bodies = append(env.bodies, string(body))
			env.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		demo.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	st, err := store.Open(t.TempDir() + "/airlock.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	box, _ := tools.NewToolbox(tools.Builtins()...)
	client := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: model})
	env.st = st
	env.eng = New(Deps{Store: st, Tools: Fixed(box), Emit: func(name string, p any) {
		if n, ok := p.(bridge.Notice); ok {
			env.mu.Lock()
			env.notes = append(env.notes, n)
			env.mu.Unlock()
		}
	}, Connect: func(context.Context, chat.Chat) (chat.Provider, Model, error) {
		return chat.Provider{ID: "demo", Model: model}, client, nil
	}})
	t.Cleanup(env.eng.Shutdown)
	ctx := context.Background()
	env.chat, _ = st.CreateChat(ctx, DefaultTitle)
	if env.chat, err = st.SetChatOptions(ctx, env.chat.ID, chat.ChatOptions{Paradigm: "json", ToolMode: mode}); err != nil {
		t.Fatal(err)
	}
	return env
}

// waitAnswer waits for the chat's answer to settle and returns it.
func (env *imageEnv) waitAnswer() chat.Message {
	env.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for env.eng.Streaming(env.chat.ID) {
		if time.Now().After(deadline) {
			env.t.Fatal("the answer never settled")
		}
		time.Sleep(5 * time.Millisecond)
	}
	msgs, _ := env.st.ListMessages(context.Background(), env.chat.ID)
	return msgs[len(msgs)-1]
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// screenshotTurn stores what an MCP tool returning an image leaves behind:
// an answer with one call (native or text) whose result carries an image,
// and the results message.
func (env *imageEnv) screenshotTurn(format string) {
	env.t.Helper()
	ctx := context.Background()
	if _, err := env.st.AddMessage(ctx, chat.Message{ChatID: env.chat.ID, Role: chat.RoleUser, Content: "take a screenshot"}); err != nil {
		env.t.Fatal(err)
	}
	asst, err := env.st.AddMessage(ctx, chat.Message{ChatID: env.chat.ID, Role: chat.RoleAssistant, Content: "Taking one."})
	if err != nil {
		env.t.Fatal(err)
	}
	calls, err := env.st.AddCalls(ctx, []chat.Call{{ModelCallID: "call_1", ChatID: env.chat.ID, MessageID: asst.ID,
		Name: "browser_screenshot", Arguments: json.RawMessage(`{}`), Format: format, State: chat.CallPending}})
	if err != nil {
		env.t.Fatal(err)
	}
	c := calls[0]
	c.State, c.ResultState = chat.CallDone, chat.ToolSuccess
	c.Result = "[image returned (image/png, 99 bytes): " + unseen
	c.Images = []chat.Image{{MIME: "image/png", Data: pngOf(env.t, 321, 123)}}
	if err := env.st.UpdateCall(ctx, c); err != nil {
		env.t.Fatal(err)
	}
	if _, err := env.st.AddMessage(ctx, chat.Message{ChatID: env.chat.ID, Role: chat.RoleUser, Kind: chat.KindToolResults,
		Content: "Results:\n" + c.Result}); err != nil {
		env.t.Fatal(err)
	}
}

func (env *imageEnv) last() string {
	env.mu.Lock()
	defer env.mu.Unlock()
	if len(env.bodies) == 0 {
		env.t.Fatal("no request was sent")
	}
	return env.bodies[len(env.bodies)-1]
}

// A tool's image goes to a model that takes images: natively in a user
// message after the tool messages, in text mode in the results message.
func TestToolImageReachesVisionModel(t *testing.T) {
	for _, tc := range []struct {
		mode   chat.ToolMode
		format string
	}{{chat.ToolModeNative, FormatNative}, {chat.ToolModeText, "json"}} {
		t.Run(string(tc.mode), func(t *testing.T) {
			env := newImageEnv(t, demomodel.DefaultModels()[0], tc.mode)
			env.screenshotTurn(tc.format)
			if _, err := env.eng.Retry(context.Background(), env.chat.ID); err != nil {
				t.Fatal(err)
			}
			answer := env.waitAnswer()
			body := env.last()
			if !strings.Contains(body, `"type":"image_url"`) || !strings.Contains(body, "data:image/png;base64,") {
				t.Fatalf("the request carries no image: %.600s", body)
			}
			if strings.Contains(body, "you cannot see it") {
				t.Error("the request still tells the model it cannot see the image")
			}
			var req struct {
				Messages []struct {
					Role    string          `json:"role"`
					Content json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal([]byte(body), &req); err != nil {
				t.Fatal(err)
			}
			lastMsg := req.Messages[len(req.Messages)-1]
			if lastMsg.Role != "user" || !bytes.Contains(lastMsg.Content, []byte("image_url")) {
				t.Errorf("the image is not in the last (user) message: %s %.200s", lastMsg.Role, lastMsg.Content)
			}
			if tc.mode == chat.ToolModeNative && req.Messages[len(req.Messages)-2].Role != "tool" {
				t.Errorf("natively, the images follow the tool messages; before them: %s", req.Messages[len(req.Messages)-2].Role)
			}
			if !strings.Contains(answer.Content, "321×123 PNG") {
				t.Errorf("the demo model did not see the image: %q", answer.Content)
			}
		})
	}
}

// A model that refuses images: the refusal is learned, the answer asked
// again without them, the chat told; later requests carry no image; and
// the chat's switch keeps images from a vision model.
func TestToolImageNotSentWhenRefusedOrOff(t *testing.T) {
	env := newImageEnv(t, demomodel.TextOnlyModel, chat.ToolModeText)
	env.screenshotTurn("json")
	if _, err := env.eng.Retry(context.Background(), env.chat.ID); err != nil {
		t.Fatal(err)
	}
	answer := env.waitAnswer()
	if answer.Status != chat.StatusComplete {
		t.Fatalf("answer %s: %s", answer.Status, answer.ErrorMessage)
	}
	if strings.Contains(env.last(), "image_url") {
		t.Fatal("the request sent after the refusal still carries the image")
	}
	v, _ := env.st.GetVision(context.Background(), "demo", demomodel.TextOnlyModel)
	if v.Sees != "no" || v.Source != "learned" || !strings.Contains(v.Reason, "image input is not supported") {
		t.Errorf("vision not learned: %+v", v)
	}
	env.mu.Lock()
	told := len(env.notes) > 0 && strings.Contains(env.notes[0].Message, "does not take images")
	env.mu.Unlock()
	if !told {
		t.Errorf("the chat was not told: %+v", env.notes)
	}

	off := newImageEnv(t, demomodel.DefaultModels()[0], chat.ToolModeText)
	off.screenshotTurn("json")
	if err := off.st.SetToolImages(context.Background(), off.chat.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := off.eng.Retry(context.Background(), off.chat.ID); err != nil {
		t.Fatal(err)
	}
	off.waitAnswer()
	if b := off.last(); strings.Contains(b, "image_url") || !strings.Contains(b, "you cannot see it") {
		t.Errorf("with the switch off the image went anyway: %.400s", b)
	}
}

// A person's attachments: an image as an image_url part (scaled down when
// large, the original kept), a text file as a text block with its name.
func TestSendWithFiles(t *testing.T) {
	env := newImageEnv(t, demomodel.DefaultModels()[0], chat.ToolModeText)
	big := pngOf(t, 3000, 1000)
	msgs, err := env.eng.SendWith(context.Background(), env.chat.ID, "what is this?", []chat.NewAttachment{
		{Name: "shot.png", Data: big}, {Name: "notes.md", Data: []byte("# Notes\nline")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs[0].Attachments) != 2 {
		t.Fatalf("the stored message has %d attachments", len(msgs[0].Attachments))
	}
	answer := env.waitAnswer()
	body := env.last()
	if !strings.Contains(body, "File: notes.md\\n```\\n# Notes\\nline\\n```") {
		t.Errorf("no text block: %.300s", body)
	}
	if !strings.Contains(answer.Content, "2048×682 PNG") {
		t.Errorf("the image was not scaled down to 2048 px: %q", answer.Content)
	}
	kept, _ := env.st.MessageAttachments(context.Background(), msgs[0].ID)
	if !bytes.Equal(kept[0].Data, big) {
		t.Error("the stored original changed")
	}
	if _, err := env.eng.SendWith(context.Background(), env.chat.ID, "", []chat.NewAttachment{{Name: "x.png", Data: []byte(`<svg onload="alert(1)"/>`)}}); err == nil {
		t.Error("an SVG named .png was accepted")
	}
}

// Editing a message with files keeps them on the new version.
func TestEditKeepsAttachments(t *testing.T) {
	env := newImageEnv(t, demomodel.DefaultModels()[0], chat.ToolModeText)
	msgs, err := env.eng.SendWith(context.Background(), env.chat.ID, "what is this?", []chat.NewAttachment{{Name: "a.png", Data: pngOf(t, 4, 4)}})
	if err != nil {
		t.Fatal(err)
	}
	env.waitAnswer()
	edited, err := env.eng.EditAndResend(context.Background(), msgs[0].ID, "and now?")
	if err != nil {
		t.Fatal(err)
	}
	if len(edited[0].Attachments) != 1 || edited[0].Attachments[0].Name != "a.png" {
		t.Fatalf("the edited version lost its files: %+v", edited[0].Attachments)
	}
	if answer := env.waitAnswer(); !strings.Contains(answer.Content, "4×4 PNG") {
		t.Errorf("the image was not sent with the edited version: %q", answer.Content)
	}
}
