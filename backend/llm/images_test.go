package llm_test

import (
	"context"
	"encoding/json"
	"strings"
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

// On the Anthropic wire an image goes as a base64 image block after the text.
func TestAnthropicImageBlocks(t *testing.T) {
	s := newAntServer(t, antReply{events: events(
		msgStart(25, 0, 0),
		blockStart(0, `{"type":"text","text":""}`),
		textDelta(0, "ok"),
		blockStop(0), msgEnd("end_turn", 1))})
	o := stream(t, antConfig(s.url+"/v1"), context.Background(), llm.Request{Messages: []llm.Message{
		{Role: chat.RoleUser, Content: "what is this?", ImageURLs: []string{"data:image/png;base64,AAAA"}}}})
	if o.err != nil {
		t.Fatal(o.err)
	}
	raw := s.got()[0].raw
	if !strings.Contains(raw, `{"text":"what is this?","type":"text"}`) || !strings.Contains(raw, `"source":{"data":"AAAA","media_type":"image/png","type":"base64"},"type":"image"`) {
		t.Errorf("no image block: %s", raw)
	}
}
