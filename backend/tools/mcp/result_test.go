package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestConvertResultEdges(t *testing.T) {
	schema, err := compileOutputSchema(map[string]any{"type": "object", "required": []any{"ok"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		res     *sdk.CallToolResult
		schema  bool
		want    string
		isError bool
		images  int
	}{
		{name: "empty", res: &sdk.CallToolResult{}, want: "(the tool returned nothing)"},
		{name: "error without text", res: &sdk.CallToolResult{IsError: true}, want: "(the tool reported an error without saying what)", isError: true},
		{name: "texts are joined", res: &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "a"}, &sdk.TextContent{Text: "b"}}}, want: "a\nb"},
		{name: "audio", res: &sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 2048)}}},
			want: "[audio returned (audio/wav, 2.0 KB); it is not played or shown]"},
		{name: "embedded image blob", res: &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://p", MIMEType: "image/png", Blob: pngPixel}}}},
			want: "[image returned from resource mem://p (image/png, 67 bytes): it is shown to the person on the card; you cannot see it]", images: 1},
		{name: "embedded binary", res: &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "mem://z", MIMEType: "application/zip", Blob: []byte("PK")}}}},
			want: "[resource mem://z (application/zip, 2 bytes): binary, not shown]"},
		{name: "schema but no structured result", res: &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "hi"}}}, schema: true,
			want: "hi\n[Airlock: the tool declares an output schema but returned no structured result]"},
		{name: "error results are not checked", res: &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "no"}}}, schema: true,
			want: "no", isError: true},
		{name: "missing property", res: &sdk.CallToolResult{StructuredContent: map[string]any{}}, schema: true,
			want: "{}\n[Airlock: the structured result does not match the tool's output schema: at /: missing property 'ok']"},
		{name: "structured without schema", res: &sdk.CallToolResult{StructuredContent: []any{1, 2}}, want: "[1,2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s = schema
			if !tc.schema {
				s = nil
			}
			out := convertResult(tc.res, s, 1<<20)
			if out.Text != tc.want || out.IsError != tc.isError || len(out.Images) != tc.images {
				t.Errorf("got %q (error %v, %d images), want %q", out.Text, out.IsError, len(out.Images), tc.want)
			}
		})
	}
}

func TestConvertResultCapsStructured(t *testing.T) {
	big := strings.Repeat("x", 2000)
	out := convertResult(&sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: "summary"}},
		StructuredContent: map[string]any{"blob": big},
	}, nil, 1000)
	if out.Structured != nil || !strings.Contains(out.Text, "[the structured result (2.0 KB) is left out: results are capped at 1000 bytes]") {
		t.Errorf("got %q, structured %d bytes", out.Text, len(out.Structured))
	}
}

// A server that echoes its own secret (an env value, a header) in a result
// has it masked before the result reaches the card, the model, the export
// or the audit trail, as its errors are: text, structured content and the
// notes Airlock writes about resources.
func TestResultScrubsServerSecrets(t *testing.T) {
	const secret, header = "sk-live-0123456789", "Bearer tok-abcdef123456"
	ts := newTestServer(t, false)
	ts.srv.AddTool(&sdk.Tool{Name: "leak", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{
				Content: []sdk.Content{
					&sdk.TextContent{Text: "my key is " + secret + " and my header " + header},
					&sdk.ResourceLink{URI: "https://api.example.com/x?key=" + secret, Name: "link " + secret},
				},
				StructuredContent: map[string]any{"key": secret, "nested": []any{"x" + secret + "x"}},
			}, nil
		})
	opts := Options{Transport: ts.connect(t)}
	m := NewManager(opts)
	t.Cleanup(func() { m.Close() })
	cfg := ServerConfig{Name: "test", Enabled: true, URL: "http://in-process.invalid",
		Env: map[string]string{"TOKEN": secret}, Headers: map[string]string{"Authorization": header}}
	if err := m.Configure([]ServerConfig{cfg}); err != nil {
		t.Fatal(err)
	}
	if err := m.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, toolNamed(t, m, "mcp__test__leak"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{secret, "tok-abcdef123456"} {
		if strings.Contains(out.Text, leak) || strings.Contains(string(out.Structured), leak) {
			t.Errorf("the result shows %q:\n%s\n%s", leak, out.Text, out.Structured)
		}
	}
	if !strings.Contains(out.Text, "my key is "+Masked) || !json.Valid(out.Structured) ||
		!strings.Contains(string(out.Structured), `"key":"`+Masked+`"`) {
		t.Errorf("the result is not masked as expected:\n%s\n%s", out.Text, out.Structured)
	}
}
