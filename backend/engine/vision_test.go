package engine

import (
	"context"
	"strings"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/demomodel"
)

// Whether images are sent follows the user's word first, then what a
// refusal taught, then what the server says; a server that says nothing
// leaves images sent.
func TestVisionPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stored *chat.Vision // nil: nothing kept
		server string
		sent   bool
	}{
		{"the server says no", nil, "no", false},
		{"the server says yes", nil, "yes", true},
		{"the server says nothing", nil, "", true},
		{"the user's yes over the server's no", &chat.Vision{Sees: "yes", Source: "user"}, "no", true},
		{"the user's no over the server's yes", &chat.Vision{Sees: "no", Source: "user"}, "yes", false},
		{"a learned refusal over the server's yes", &chat.Vision{Sees: "no", Source: "learned", Reason: "refused"}, "yes", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newImageEnv(t, demomodel.DefaultModels()[0], chat.ToolModeText)
			var asked chat.Provider
			env.eng.vision = func(p chat.Provider) string { asked = p; return tc.server }
			if tc.stored != nil {
				v := *tc.stored
				v.ProviderID, v.Model = "demo", demomodel.DefaultModels()[0]
				if err := env.st.SetVision(context.Background(), v); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := env.eng.SendWith(context.Background(), env.chat.ID, "what is this?", []chat.NewAttachment{{Name: "a.png", Data: pngOf(t, 4, 4)}}); err != nil {
				t.Fatal(err)
			}
			env.waitAnswer()
			body := env.last()
			if sent := strings.Contains(body, "image_url"); sent != tc.sent {
				t.Errorf("image sent = %v, want %v: %.300s", sent, tc.sent, body)
			}
			if !tc.sent && !strings.Contains(body, "this model does not take images") {
				t.Errorf("the model is not told a file was there: %.300s", body)
			}
			if asked.ID != "demo" || asked.Model != demomodel.DefaultModels()[0] {
				t.Errorf("the server's word was asked for %+v", asked)
			}
		})
	}
}

// The gauge counts what attachments take: an image by its estimate when it
// is sent (a 64×64 PNG is one OpenAI tile, 255 tokens), only its note when
// the model does not take images; a text file by its block.
func TestContextUsageCountsAttachments(t *testing.T) {
	env := newImageEnv(t, demomodel.DefaultModels()[0], chat.ToolModeText)
	ctx := context.Background()
	if _, err := env.eng.SendWith(ctx, env.chat.ID, "what is this?", []chat.NewAttachment{
		{Name: "a.png", Data: pngOf(t, 64, 64)}, {Name: "notes.txt", Data: []byte(strings.Repeat("word ", 400))}}); err != nil {
		t.Fatal(err)
	}
	env.waitAnswer()
	seen, err := env.eng.ContextUsage(ctx, env.chat.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if seen.Parts.Attachments < 255+200 || seen.Parts.Attachments > 255+1000 {
		t.Errorf("attachments part %d; want the image’s 255 and the text file’s few hundred", seen.Parts.Attachments)
	}
	if err := env.st.SetVision(ctx, chat.Vision{ProviderID: "demo", Model: demomodel.DefaultModels()[0], Sees: "no", Source: "user"}); err != nil {
		t.Fatal(err)
	}
	unseen, _ := env.eng.ContextUsage(ctx, env.chat.ID, "")
	if d := seen.Used - unseen.Used; d < 200 || d > 255 {
		t.Errorf("an image not sent still counts: used %d with it, %d without (want about 255 less)", seen.Used, unseen.Used)
	}
}

// Files waiting in the composer count in the gauge before they are sent:
// an image by its estimate, a text file by its size.
func TestDraftUsageCountsPendingFiles(t *testing.T) {
	env := newImageEnv(t, demomodel.DefaultModels()[0], chat.ToolModeText)
	ctx := context.Background()
	bare, err := env.eng.DraftUsage(ctx, env.chat.ID, "look", nil)
	if err != nil {
		t.Fatal(err)
	}
	with, err := env.eng.DraftUsage(ctx, env.chat.ID, "look", []DraftFile{
		{Name: "a.png", Image: true, Size: 5000, Width: 1024, Height: 1024}, {Name: "log.txt", Size: 40_000}})
	if err != nil {
		t.Fatal(err)
	}
	d := with.Used - bare.Used
	if d < 765+10_000 || d > 765+10_000+200 {
		t.Errorf("the pending files added %d tokens; want 765 for the image and about 10,000 for the text", d)
	}
	if with.Parts.Attachments != d {
		t.Errorf("attachments part %d, want %d", with.Parts.Attachments, d)
	}
	// Files alone (no text yet) are a draft too.
	alone, _ := env.eng.DraftUsage(ctx, env.chat.ID, "", []DraftFile{{Name: "a.png", Image: true, Width: 512, Height: 512}})
	if alone.Parts.Attachments < 255 {
		t.Errorf("an image alone in the composer is not counted: %+v", alone.Parts)
	}
}
