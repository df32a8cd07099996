package facade

import (
	"airlock/backend/chat"
)

// SendWithFiles sends a message with files attached (images, text files):
// each is checked by its bytes and refused with a sentence naming the cap
// or the reason.
func (a *App) SendWithFiles(chatID, text string, files []chat.NewAttachment) ([]chat.Message, error) {
	return result(a.engine.SendWith(a.ctx, chatID, text, files))
}

// AttachmentBytes returns an attached file's bytes by its content address
// (base64 in JSON), for thumbnails and for saving it.
func (a *App) AttachmentBytes(sha256 string) ([]byte, error) {
	return result(a.store.Blob(a.ctx, sha256))
}

// ModelVision tells what is known of whether a provider's model takes
// images ("" provider: the active one; "" model: the provider's): the
// user's word, else what a refusal taught, else what the server says.
func (a *App) ModelVision(providerID, model string) (chat.Vision, error) {
	p, err := a.windowProvider(providerID, model)
	if err != nil {
		return chat.Vision{}, toAPI(err)
	}
	return result(a.visionOf(a.ctx, p))
}

// SetModelVision keeps the user's word on whether a model takes images:
// sees "yes", "no", or "" to forget what was known (the server is asked
// again then).
func (a *App) SetModelVision(providerID, model, sees string) (chat.Vision, error) {
	p, err := a.windowProvider(providerID, model)
	if err != nil {
		return chat.Vision{}, toAPI(err)
	}
	if err := a.store.SetVision(a.ctx, chat.Vision{ProviderID: p.ID, Model: p.Model, Sees: sees, Source: "user"}); err != nil {
		return chat.Vision{}, toAPI(err)
	}
	if sees == "" {
		a.vision.Forget(visionKey(p))
	}
	return result(a.visionOf(a.ctx, p))
}

// ToolImages says whether a chat sends its tools' images to the model.
func (a *App) ToolImages(chatID string) bool { return a.store.ToolImages(a.ctx, chatID) }

// SetToolImages turns sending a chat's tools' images to the model on or off.
func (a *App) SetToolImages(chatID string, on bool) error {
	return toAPI(a.store.SetToolImages(a.ctx, chatID, on))
}
