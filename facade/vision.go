package facade

import (
	"context"
	"time"

	"airlock/backend/chat"
)

// What servers say of whether their models take images is kept per
// provider, address and model (llm.VisionCache): a send takes what is
// kept and never waits; the composer and the chat's options wait a moment
// for the first answer.

// visionWait bounds how long the UI waits for a server's first answer.
const visionWait = 5 * time.Second

func visionKey(p chat.Provider) string { return p.ID + "\x00" + p.BaseURL + "\x00" + p.Model }

// serverVision is what the server says of the provider's model, as kept;
// an ask starts in the background when nothing fresh is kept.
func (a *App) serverVision(p chat.Provider) string {
	sees, _ := a.vision.Known(visionKey(p), a.client(p).Vision)
	return sees
}

// visionOf is what is known of whether the provider's model takes images:
// the user's word, else what a refusal taught, else the server's word
// (waited for at most visionWait; not known when it does not come).
func (a *App) visionOf(ctx context.Context, p chat.Provider) (chat.Vision, error) {
	v, err := a.store.GetVision(ctx, p.ID, p.Model)
	if err != nil {
		return v, err
	}
	wctx, cancel := context.WithTimeout(ctx, visionWait)
	defer cancel()
	sees, _ := a.vision.Wait(wctx, visionKey(p), a.client(p).Vision)
	return v.WithServer(sees), nil
}
