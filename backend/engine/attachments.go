package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"strings"

	"airlock/backend/attach"
	"airlock/backend/chat"
	"airlock/backend/engine/fit"
	"airlock/backend/llm"
	"airlock/backend/uitext"
)

// Attachments: files a person attaches to a message, and images tools
// return, as the model is sent them. Images go as image_url parts when the
// model takes images (not known to refuse them); text files as text blocks
// with their name.

// checkFiles checks the files of a message before anything is stored.
func checkFiles(files []chat.NewAttachment) ([]chat.AttachmentData, error) {
	if len(files) == 0 {
		return nil, nil
	}
	if len(files) > attach.MaxFiles {
		return nil, refuse("attachment_refused", chat.ErrInvalid, txtTooManyFiles, "n", len(files), "max", attach.MaxFiles)
	}
	out := make([]chat.AttachmentData, 0, len(files))
	for _, f := range files {
		c, err := attach.Check(f.Name, f.Data)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, attach.CheckMessage(out)
}

// attachTo stores the files of a message just added; if that fails, the
// message goes too (nothing half-sent stays).
func (e *Engine) attachTo(ctx context.Context, m chat.Message, files []chat.AttachmentData) (chat.Message, error) {
	if len(files) == 0 {
		return m, nil
	}
	if err := e.store.AttachFiles(ctx, m.ID, files); err != nil {
		_ = e.store.DeleteMessage(ctx, m.ID)
		return chat.Message{}, err
	}
	for _, f := range files {
		m.Attachments = append(m.Attachments, f.Attachment)
	}
	return m, nil
}

// titleText is what a new chat is named after: the text, else the first
// file's name.
func titleText(text string, files []chat.AttachmentData) string {
	if strings.TrimSpace(text) == "" && len(files) > 0 {
		return files[0].Name
	}
	return text
}

// planImages loads what the answer needs to send images: the files of the
// history's messages, whether the model takes images, and the chat's switch
// for tools' images.
func (e *Engine) planImages(ctx context.Context, p *turnPlan) {
	p.files = map[string][]chat.AttachmentData{}
	for _, m := range p.history {
		if len(m.Attachments) == 0 {
			continue
		}
		if fs, err := e.store.MessageAttachments(ctx, m.ID); err == nil {
			p.files[m.ID] = fs
		}
	}
	p.vision = e.visionOf(ctx, p.provider)
	p.toolImages = e.store.ToolImages(ctx, p.chat.ID)
}

// visionOf is what is known of whether a provider's model takes images:
// the user's word, else what a refusal taught, else what the server says
// (kept by the app; never waited for).
func (e *Engine) visionOf(ctx context.Context, p chat.Provider) chat.Vision {
	v, _ := e.store.GetVision(ctx, p.ID, p.Model)
	v.ProviderID, v.Model = p.ID, p.Model
	if e.vision != nil {
		v = v.WithServer(e.vision(p))
	}
	return v
}

// seesImages says images are sent: the model is not known to refuse them.
func (p turnPlan) seesImages() bool { return p.vision.Sees != "no" }

// sentMessage turns a stored message and its attachments into the message
// the model is sent: text files become text blocks with their name; images
// become image_url parts when the model takes images, a note otherwise. A
// tool-results message (text calls) carries the images of the calls it
// answers (callsBefore: the calls of the message before it). What the
// files and images cost is said beside (fit.Message's Images and Files).
// ok is false when there is nothing to send.
func (p turnPlan) sentMessage(m chat.Message, callsBefore []chat.Call) (fit.Message, bool) {
	out := fit.Message{Message: llm.Message{Role: m.Role, Content: m.Content}, ID: m.ID}
	for _, f := range p.files[m.ID] {
		var block string
		switch {
		case f.Kind == attach.KindText:
			block = attach.TextBlock(f.Name, f.Data)
		case p.seesImages():
			block = fmt.Sprintf("[image %s (%d×%d) attached]", f.Name, f.Width, f.Height)
			out.ImageURLs = append(out.ImageURLs, attach.DataURL(f.MIME, f.Data))
			out.Images += fit.ImageTokens(p.imageKind(), f.Width, f.Height)
		default:
			block = attach.ImageNote(f.Name, f.Width, f.Height)
		}
		out.Content = joinText(out.Content, block)
		out.Files += p.count(block)
	}
	if m.ID == draftID {
		out.Images += p.draftTokens()
	}
	if m.Kind == chat.KindToolResults && p.sendsToolImages(callsBefore) {
		out.Content = p.seeable(out.Content, callsBefore)
		out.ImageURLs = append(out.ImageURLs, toolImageURLs(callsBefore)...)
		out.Images += p.toolImageTokens(callsBefore)
	}
	return out, strings.TrimSpace(out.Content) != "" || len(out.ImageURLs) > 0 || out.Images > 0
}

// imageKind is how the plan's server counts images.
func (p turnPlan) imageKind() fit.ImageKind {
	if p.provider.Kind == chat.APIAnthropic {
		return fit.ImagesAnthropic
	}
	return fit.ImagesOpenAI
}

// count counts a text with the plan's counter (0 without one: a plan made
// without a window, in tests).
func (p turnPlan) count(text string) int {
	if p.window.counter == nil {
		return 0
	}
	return p.window.counter.Count(text)
}

// toolImageTokens is what the calls' images cost, by the sizes their
// headers say.
func (p turnPlan) toolImageTokens(calls []chat.Call) int {
	n := 0
	for _, c := range calls {
		for _, img := range c.Images {
			cfg, _, _ := image.DecodeConfig(bytes.NewReader(img.Data)) // unknown: 0×0
			n += fit.ImageTokens(p.imageKind(), cfg.Width, cfg.Height)
		}
	}
	return n
}

// sendsToolImages says the images of these calls go to the model.
func (p turnPlan) sendsToolImages(calls []chat.Call) bool {
	return p.toolImages && p.seesImages() && len(toolImageURLs(calls)) > 0
}

func toolImageURLs(calls []chat.Call) []string {
	var urls []string
	for _, c := range calls {
		for _, img := range c.Images {
			urls = append(urls, attach.DataURL(img.MIME, img.Data))
		}
	}
	return urls
}

// toolImagesMessage is the user message that follows native tool messages
// with the tools' images (tool messages are text-only on most servers).
func (p turnPlan) toolImagesMessage(calls []chat.Call) (fit.Message, bool) {
	if !p.sendsToolImages(calls) {
		return fit.Message{}, false
	}
	return fit.Message{Message: llm.Message{Role: chat.RoleUser, Content: "The images the tools returned:", ImageURLs: toolImageURLs(calls)},
		Images: p.toolImageTokens(calls)}, true
}

// unseen is what a tool result says of an image the model is not sent
// (tools/mcp); seen replaces it when the image is sent.
const (
	unseen = "it is shown to the person on the card; you cannot see it]"
	seen   = "it is shown to the person on the card and attached as an image]"
)

// seeable corrects a tool result's word about its images when they are sent.
func (p turnPlan) seeable(text string, calls []chat.Call) string {
	if !p.sendsToolImages(calls) {
		return text
	}
	return strings.ReplaceAll(text, unseen, seen)
}

func joinText(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return a + "\n\n" + b
}

// hasImages says the plan's request may carry images: files attached to
// its messages, or tools' images when the chat sends them.
func (p turnPlan) hasImages() bool {
	for _, fs := range p.files {
		for _, f := range fs {
			if f.Kind == attach.KindImage {
				return true
			}
		}
	}
	for _, cs := range p.calls {
		if p.toolImages && len(toolImageURLs(cs)) > 0 {
			return true
		}
	}
	return false
}

// visionPhrases are what servers say when a model does not take images.
var visionPhrases = []string{
	"image input is not supported", "does not support image", "doesn't support image", "image_url is not supported",
	"does not support vision", "vision is not supported", "not a multimodal model", "images are not supported",
	"unknown variant `image_url`", "image input not supported", "no vision", "cannot accept images",
	"model does not support multimodal", "image content is not supported",
}

// visionRefused says the request carried images and the server refused
// them for this model.
func (p turnPlan) visionRefused(err error) bool {
	if err == nil || !p.seesImages() || !p.hasImages() {
		return false
	}
	said := strings.ToLower(err.Error())
	var le *llm.Error
	if errors.As(err, &le) {
		said += " " + strings.ToLower(le.Said)
	}
	for _, ph := range visionPhrases {
		if strings.Contains(said, ph) {
			return true
		}
	}
	return false
}

// learnNoVision remembers that the model does not take images and tells the chat.
func (e *Engine) learnNoVision(p turnPlan, reason uitext.Text) {
	_ = e.store.SetVision(context.Background(), chat.Vision{ProviderID: p.provider.ID, Model: p.provider.Model, Sees: "no", Source: "learned", Reason: reason.English})
	if reason.Code == "" {
		reason = uitext.Plain(strings.TrimSuffix(reason.English, "."))
	}
	e.notice(p.chat.ID, "vision_learned", txtVisionLearned.With("model", p.provider.Model, "reason", reason))
}

// keepAttachments gives an edited version of a message the files of the
// original: editing the text does not drop what was attached.
func (e *Engine) keepAttachments(ctx context.Context, orig, edited chat.Message) (chat.Message, error) {
	if len(orig.Attachments) == 0 {
		return edited, nil
	}
	files, err := e.store.MessageAttachments(ctx, orig.ID)
	if err != nil {
		return edited, err
	}
	return e.attachTo(ctx, edited, files)
}
