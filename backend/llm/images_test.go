package llm_test

import (
	"encoding/json"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/llm"
)

// A message with images is sent as OpenAI content parts: its text, then
// one image_url part per image — with and without native tools.
func TestRequestImageParts(t *testing.T) {
	for _, tools := range [][]llm.Tool{nil, {{Name: "read_file"}}} {
		url, body := bodyServer(t)
		req := llm.Request{Tools: tools, Messages: []llm.Message{
			{Role: chat.RoleUser, Content: "what is this?", ImageURLs: []string{"data:image/png;base64,AAAA"}},
			{Role: chat.RoleAssistant, Content: "a picture"},
		}}
		if o := stream(t, llm.Config{BaseURL: url, Model: "m"}, t.Context(), req); o.err != nil {
			t.Fatal(o.err)
		}
		var got struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body(), &got); err != nil {
			t.Fatal(err)
		}
		want := `[{"type":"text","text":"what is this?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]`
		if string(got.Messages[0].Content) != want {
			t.Errorf("tools %d: content %s\nwant %s", len(tools), got.Messages[0].Content, want)
		}
		if string(got.Messages[1].Content) != `"a picture"` {
			t.Errorf("a message without images changed: %s", got.Messages[1].Content)
		}
	}
}
