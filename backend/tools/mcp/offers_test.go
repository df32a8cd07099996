package mcp

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// offersServer is an in-process server with prompts, resources, a template
// and completions.
func offersServer(t *testing.T) *testServer {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "offers", Version: "1"}, &sdk.ServerOptions{
		CompletionHandler: func(_ context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
			p := req.Params
			var vals []string
			for _, v := range []string{"alpha", "beta", "alpine"} {
				if p.Ref.Type == "ref/resource" && p.Argument.Name == "id" && strings.HasPrefix(v, p.Argument.Value) {
					vals = append(vals, v)
				}
			}
			if p.Argument.Name == "many" {
				for i := range 150 {
					vals = append(vals, strings.Repeat("x", i+1))
				}
			}
			return &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{Values: vals}}, nil
		},
	})
	srv.AddPrompt(&sdk.Prompt{Name: "review", Title: "Review code", Description: "Reviews a file.",
		Arguments: []*sdk.PromptArgument{{Name: "file", Description: "Which file", Required: true}, {Name: "tone"}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: "Review " + req.Params.Arguments["file"] + " kindly."}},
				{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png", Data: pngPixel}},
				{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://docs/style.md", MIMEType: "text/markdown", Text: "# Style"}}},
			}}, nil
		})
	srv.AddPrompt(&sdk.Prompt{Name: "sing"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")}}}}, nil
	})
	read := func(text string, blob []byte, mime string) sdk.ResourceHandler {
		return func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: mime, Text: text, Blob: blob}}}, nil
		}
	}
	srv.AddResource(&sdk.Resource{URI: "mem://docs/readme.md", Name: "readme.md", MIMEType: "text/markdown", Description: "The readme."}, read("# Hello", nil, "text/markdown"))
	srv.AddResource(&sdk.Resource{URI: "mem://img/pixel.png", Name: "pixel.png", MIMEType: "image/png"}, read("", pngPixel, "image/png"))
	srv.AddResource(&sdk.Resource{URI: "mem://big", Name: "big"}, read(strings.Repeat("a", MaxOfferBytes+1), nil, "text/plain"))
	srv.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: "mem://items/{id}", Name: "item"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "item " + strings.TrimPrefix(req.Params.URI, "mem://items/")}}}, nil
		})
	return &testServer{srv: srv}
}

func TestPromptsResourcesAndCompletion(t *testing.T) {
	ts := offersServer(t)
	var changes atomic.Int32
	m := startManager(t, ts, Options{OnChange: func() { changes.Add(1) }})
	ctx := context.Background()

	o := m.Offers(ctx, nil, true, true)
	if len(o.Problems) != 0 || len(o.Prompts) != 2 || len(o.Resources) != 3 || len(o.Templates) != 1 {
		t.Fatalf("offers = %+v", o)
	}
	var review Prompt
	for _, p := range o.Prompts {
		if p.Name == "review" {
			review = p
		}
	}
	if review.Server != "test" || review.Title != "Review code" || len(review.Arguments) != 2 || !review.Arguments[0].Required || review.Arguments[1].Required {
		t.Fatalf("review = %+v", review)
	}
	if tp := o.Templates[0]; tp.URITemplate != "mem://items/{id}" || len(tp.Variables) != 1 || tp.Variables[0] != "id" {
		t.Fatalf("template = %+v", tp)
	}
	if only := m.Offers(ctx, []string{"other"}, true, true); len(only.Prompts)+len(only.Resources) != 0 {
		t.Fatalf("a server the chat did not choose was listed: %+v", only)
	}

	// A prompt: text joined, the image and the embedded resource as files.
	part, err := m.GetPrompt(ctx, "test", "review", map[string]string{"file": "main.go"})
	if err != nil || part.Text != "Review main.go kindly." || len(part.Files) != 2 ||
		part.Files[0].Name != "image-1.png" || string(part.Files[0].Data) != string(pngPixel) || part.Files[1].Name != "style.md" || string(part.Files[1].Data) != "# Style" {
		t.Fatalf("prompt = %+v, %v", part, err)
	}
	if _, err := m.GetPrompt(ctx, "test", "sing", nil); err == nil || !strings.Contains(err.Error(), "audio") {
		t.Fatalf("audio prompt: %v", err)
	}

	// Resources: text, an image, one over the cap (named in the error).
	if p, err := m.ReadResource(ctx, "test", "mem://docs/readme.md", "readme.md"); err != nil || len(p.Files) != 1 || p.Files[0].Name != "readme.md" || string(p.Files[0].Data) != "# Hello" {
		t.Fatalf("readme = %+v, %v", p, err)
	}
	if p, err := m.ReadResource(ctx, "test", "mem://img/pixel.png", ""); err != nil || p.Files[0].Name != "pixel.png" || string(p.Files[0].Data) != string(pngPixel) {
		t.Fatalf("pixel = %+v, %v", p, err)
	}
	if _, err := m.ReadResource(ctx, "test", "mem://big", ""); err == nil || !strings.Contains(err.Error(), "at most 8 MB") {
		t.Fatalf("big resource: %v", err)
	}

	// A template: completed, expanded, read.
	vals, err := m.Complete(ctx, "test", "resource", "mem://items/{id}", "id", "al", nil)
	if err != nil || strings.Join(vals, ",") != "alpha,alpine" {
		t.Fatalf("completion = %v, %v", vals, err)
	}
	if vals, _ := m.Complete(ctx, "test", "prompt", "review", "many", "", nil); len(vals) != MaxCompletions {
		t.Fatalf("completion not capped: %d", len(vals))
	}
	uri, err := ExpandTemplate("mem://items/{id}", map[string]string{"id": "beta"})
	if err != nil || uri != "mem://items/beta" {
		t.Fatalf("expand = %q, %v", uri, err)
	}
	if _, err := ExpandTemplate("mem://items/{id}", nil); err == nil || !strings.Contains(err.Error(), `"id"`) {
		t.Fatalf("an empty variable: %v", err)
	}
	if p, err := m.ReadResource(ctx, "test", uri, ""); err != nil || string(p.Files[0].Data) != "item beta" || p.Files[0].Name != "items-beta" {
		t.Fatalf("item = %+v, %v", p, err)
	}

	// list_changed: the UI is told to read the lists again.
	before := changes.Load()
	ts.srv.AddPrompt(&sdk.Prompt{Name: "new"}, func(context.Context, *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{}, nil
	})
	ts.srv.RemoveResources("mem://big")
	deadline := time.Now().Add(5 * time.Second)
	for changes.Load() == before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if changes.Load() == before {
		t.Fatal("a prompts/list_changed did not reach OnChange")
	}
	if o := m.Offers(ctx, nil, true, true); len(o.Prompts) != 3 || len(o.Resources) != 2 {
		t.Fatalf("after the change: %d prompts, %d resources", len(o.Prompts), len(o.Resources))
	}
}

// A server with no prompts or resources lists none, without a problem;
// one that stopped is not asked.
func TestOffersOfAServerWithoutThem(t *testing.T) {
	m := startManager(t, newTestServer(t, false), Options{})
	ctx := context.Background()
	if o := m.Offers(ctx, nil, true, true); len(o.Prompts)+len(o.Resources)+len(o.Templates)+len(o.Problems) != 0 {
		t.Fatalf("offers = %+v", o)
	}
	if vals, err := m.Complete(ctx, "test", "prompt", "x", "y", "", nil); err != nil || len(vals) != 0 {
		t.Fatalf("complete = %v %v", vals, err)
	}
	_ = m.Stop("test")
	if _, err := m.GetPrompt(ctx, "test", "x", nil); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Fatalf("stopped: %v", err)
	}
}
