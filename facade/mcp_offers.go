package facade

import (
	"airlock/backend/attach"
	"airlock/backend/chat"
	"airlock/backend/tools/mcp"
)

// What MCP servers offer besides tools, for the composer: prompts (its "/"
// menu) and resources (Attach from server…). What they bring is checked
// like any attached file, so the composer holds it as one.

// MCPPart is what a prompt or a resource brings into the composer: Text for
// the message box, Files to attach (already checked, with the same caps).
type MCPPart struct {
	Text  string    `json:"text"`
	Files []MCPFile `json:"files"`
}

// MCPFile is a file to attach: Image is its sniffed type ("" for text).
type MCPFile struct {
	Name  string `json:"name"`
	Size  int    `json:"size"`
	Image string `json:"image"`
	Data  []byte `json:"data"` // base64 in JSON
}

// MCPOffers lists the prompts and/or resources of the chat's ready servers;
// for a chat not created yet ("" chat), of the servers it will offer
// (nil: every server).
func (a *App) MCPOffers(chatID string, servers []string, prompts, resources bool) mcp.Offers {
	if chatID != "" {
		if c, err := a.store.GetChat(a.ctx, chatID); err == nil {
			servers = c.MCPServers
		}
	}
	return a.mcp.Offers(a.ctx, servers, prompts, resources)
}

// UseMCPPrompt fills a server's prompt with the arguments.
func (a *App) UseMCPPrompt(server, name string, args map[string]string) (MCPPart, error) {
	p, err := a.mcp.GetPrompt(a.ctx, server, name, args)
	return checkedPart(p, err)
}

// ReadMCPResource reads a server's resource, to attach it (named name, or
// after its URI).
func (a *App) ReadMCPResource(server, uri, name string) (MCPPart, error) {
	p, err := a.mcp.ReadResource(a.ctx, server, uri, name)
	return checkedPart(p, err)
}

// ReadMCPTemplate fills a resource template and reads the resource.
func (a *App) ReadMCPTemplate(server, template string, values map[string]string) (MCPPart, error) {
	uri, err := mcp.ExpandTemplate(template, values)
	if err != nil {
		return MCPPart{}, toAPI(chat.Errorf("mcp_offer", chat.ErrInvalid, "%s", err.Error()))
	}
	return a.ReadMCPResource(server, uri, "")
}

// CompleteMCP asks a server for values of a prompt's argument (kind
// "prompt", ref its name) or a resource template's variable (kind
// "resource", ref the template), given what is typed so far.
func (a *App) CompleteMCP(server, kind, ref, arg, value string, others map[string]string) ([]string, error) {
	vals, err := a.mcp.Complete(a.ctx, server, kind, ref, arg, value, others)
	if err != nil {
		return []string{}, toAPI(chat.Errorf("mcp_offer", chat.ErrInvalid, "%s", err.Error()))
	}
	return vals, nil
}

// checkedPart checks each file as an attached file is checked (by its
// bytes, with the attachment caps named in the refusal).
func checkedPart(p mcp.Part, err error) (MCPPart, error) {
	if err != nil {
		return MCPPart{}, toAPI(chat.Errorf("mcp_offer", chat.ErrInvalid, "%s", err.Error()))
	}
	out := MCPPart{Text: p.Text, Files: []MCPFile{}}
	var all []chat.AttachmentData
	for _, f := range p.Files {
		d, err := attach.Check(f.Name, f.Data)
		if err != nil {
			return MCPPart{}, toAPI(err)
		}
		all = append(all, d)
		file := MCPFile{Name: d.Name, Size: len(d.Data), Data: d.Data}
		if d.Kind == attach.KindImage {
			file.Image = d.MIME
		}
		out.Files = append(out.Files, file)
	}
	if err := attach.CheckMessage(all); err != nil {
		return MCPPart{}, toAPI(err)
	}
	return out, nil
}
