package facade

// The TypeScript mirror of the types the UI shares with Go is generated from
// the Go types below (frontend/src/api/generated.ts), so it cannot drift:
// this test fails when the committed file differs from what Go says.
// Regenerate with `make types` (go test -run TestTSTypes -update ./facade).
// Go keeps enums as plain strings: api/index.ts narrows those fields to
// unions by hand (see Narrow there).

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"airlock/backend/bridge"
	"airlock/backend/chat"
	"airlock/backend/engine"
	"airlock/backend/engine/fit"
	"airlock/backend/tools"
	"airlock/backend/tools/code"
	"airlock/backend/tools/mcp"
	"airlock/backend/workspace"
)

var updateTypes = flag.Bool("update", false, "rewrite frontend/src/api/generated.ts")

const tsTypesFile = "../frontend/src/api/generated.ts"

// tsTypes: the TS name and a value of each shared Go type, in output order.
var tsTypes = []struct {
	name string
	v    any
}{
	{"Usage", chat.Usage{}},
	{"ChatOptions", chat.ChatOptions{}},
	{"Chat", chat.Chat{}},
	{"TrashedChat", chat.TrashedChat{}},
	{"Attachment", chat.Attachment{}},
	{"NewAttachment", chat.NewAttachment{}},
	{"ModelVision", chat.Vision{}},
	{"Message", chat.Message{}},
	{"SearchHit", chat.SearchHit{}},
	{"Provider", chat.Provider{}},
	{"Settings", chat.Settings{}},
	{"ModelModeInfo", ModelModeInfo{}},
	{"ContextParts", fit.Parts{}},
	{"ContextUsage", engine.ContextUsage{}},
	{"DraftFile", engine.DraftFile{}},
	{"Summary", chat.Summary{}},
	{"ContextWindow", chat.Window{}},
	{"ModelWindowInfo", ModelWindowInfo{}},
	{"AppInfo", AppInfo{}},
	{"AboutInfo", AboutInfo{}},
	{"ImportResult", ImportResult{}},
	{"ToolImage", chat.Image{}},
	{"Call", chat.Call{}},
	{"RunOutput", tools.Output{}},
	{"CodeLimits", code.Limits{}},
	{"CodeBounds", code.Bounds{}},
	{"CodePlan", code.Plan{}},
	{"CodeFileChange", code.FileChange{}},
	{"CodeReport", code.Report{}},
	{"RuleMatch", chat.RuleMatch{}},
	{"Rule", chat.Rule{}},
	{"AuditEntry", chat.AuditEntry{}},
	{"ToolSpec", ToolInfo{}},
	{"ParadigmInfo", ParadigmInfo{}},
	{"WorkspaceEntry", WorkspaceEntry{}},
	{"WorkspaceInfo", WorkspaceInfo{}},
	{"FileView", FileView{}},
	{"Change", workspace.Change{}},
	{"McpServerConfig", mcp.ServerConfig{}},
	{"McpServerInfo", MCPServerInfo{}},
	{"McpServers", MCPServers{}},
	{"McpImport", MCPImport{}},
	{"McpQuestion", MCPQuestion{}},
	{"McpProgress", MCPProgress{}},
	{"McpPrompt", mcp.Prompt{}},
	{"McpPromptArgument", mcp.PromptArgument{}},
	{"McpResource", mcp.Resource{}},
	{"McpResourceTemplate", mcp.ResourceTemplate{}},
	{"McpOffers", mcp.Offers{}},
	{"McpFile", MCPFile{}},
	{"McpPart", MCPPart{}},
	{"FormingCall", bridge.FormingCall{}},
	{"CallsForming", bridge.Forming{}},
	{"ChatNotice", bridge.Notice{}},
	{"StreamDelta", bridge.DeltaEvent{}},
	{"StreamEnd", bridge.EndEvent{}},
	{"CheckpointPath", CheckpointPathView{}},
	{"Checkpoint", CheckpointView{}},
	{"CheckpointList", CheckpointList{}},
	{"UndoResult", workspace.UndoResult{}},
	{"ArgOption", ArgOption{}},
	{"RuleOptions", RuleOptions{}},
	{"TestedCall", TestedCall{}},
	{"RuleTest", RuleTest{}},
	{"RuleAdded", RuleAdded{}},
	{"AuditPage", AuditPage{}},
	{"ChatSetup", chat.ChatSetup{}},
	{"ToolChoice", chat.ToolChoice{}},
	{"Agent", chat.Agent{}},
	{"ProviderModels", ProviderModels{}},
	{"ToolOffer", ToolOffer{}},
	{"ChatTools", ChatTools{}},
}

var (
	rawMessageType = reflect.TypeOf(json.RawMessage{})
	timeType       = reflect.TypeOf(time.Time{})
	durationType   = reflect.TypeOf(time.Duration(0))
)

// tsType writes a Go type as TypeScript; named structs we generate are referred to by name.
func tsType(t reflect.Type, names map[reflect.Type]string) string {
	if n, ok := names[t]; ok {
		return n
	}
	switch t {
	case rawMessageType:
		return "unknown" // any JSON value
	case timeType:
		return "string" // RFC 3339
	case durationType:
		return "number" // nanoseconds
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string" // []byte: base64
		}
		return tsType(t.Elem(), names) + "[]"
	case reflect.Map:
		return "Record<string, " + tsType(t.Elem(), names) + ">"
	case reflect.Pointer:
		return tsType(t.Elem(), names) + " | null"
	case reflect.Interface:
		return "unknown"
	case reflect.Struct:
		var b strings.Builder
		b.WriteString("{\n")
		writeFields(&b, t, names, "    ")
		b.WriteString("  }")
		return b.String()
	}
	panic("tstypes: no TypeScript for " + t.String())
}

// writeFields writes a struct's JSON fields; embedded structs without a JSON name are flattened, as encoding/json does.
func writeFields(b *strings.Builder, t reflect.Type, names map[reflect.Type]string, indent string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			writeFields(b, ft, names, indent)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		opt := ""
		if strings.Contains(","+opts+",", ",omitempty,") {
			opt = "?"
		}
		fmt.Fprintf(b, "%s%s%s: %s\n", indent, name, opt, tsType(f.Type, names))
	}
}

func generateTSTypes() string {
	names := map[reflect.Type]string{}
	for _, x := range tsTypes {
		names[reflect.TypeOf(x.v)] = x.name
	}
	var b strings.Builder
	b.WriteString("// Code generated by facade/tstypes_test.go (make types); DO NOT EDIT.\n")
	b.WriteString("// The shapes of the Go types the UI shares, as encoding/json writes them (`?` = omitempty).\n")
	b.WriteString("// Go enums are plain strings here: api/<concern>.ts narrows them to unions.\n")
	b.WriteString("// One file, however long: it mirrors the Go types and nobody edits it by hand.\n")
	for _, x := range tsTypes {
		t := reflect.TypeOf(x.v)
		fmt.Fprintf(&b, "\n/** Go: %s */\nexport type %s = {\n", t.String(), x.name)
		delete(names, t) // the type itself is written out, not referred to
		writeFields(&b, t, names, "  ")
		names[t] = x.name
		b.WriteString("}\n")
	}
	return b.String()
}

func TestTSTypes(t *testing.T) {
	want := generateTSTypes()
	if *updateTypes {
		if err := os.WriteFile(tsTypesFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(tsTypesFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: the Go types changed. Run `make types` and commit it.", tsTypesFile)
	}
}
