package demomodel

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // sizes of attached images
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"strings"

	_ "golang.org/x/image/webp"
)

// Images: the demo model "sees" an image by its header — it says its size
// and format, so attachments and tools' images can be tried offline.
// TextOnlyModel refuses images as a server without vision does.

// imagesOf describes the image_url parts of a message content ("800×600
// PNG"), in order.
func imagesOf(raw json.RawMessage) []string {
	var parts []struct {
		Type     string `json:"type"`
		ImageURL *struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var out []string
	for _, p := range parts {
		if p.Type != "image_url" || p.ImageURL == nil {
			continue
		}
		out = append(out, describeImage(p.ImageURL.URL))
	}
	return out
}

func describeImage(url string) string {
	_, b64, ok := strings.Cut(url, ";base64,")
	if !ok {
		return "an image I cannot read (not a data: URL)"
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "an image I cannot read (bad base64)"
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "an image I cannot read (" + err.Error() + ")"
	}
	return fmt.Sprintf("%d×%d %s", cfg.Width, cfg.Height, strings.ToUpper(format))
}

// imageReply answers a last message that carries images, or refuses them
// for TextOnlyModel. ok is false when the last message has none.
func imageReply(p Prompt) (Reply, bool) {
	n := len(p.Messages)
	if n == 0 || len(p.Messages[n-1].Images) == 0 {
		return Reply{}, false
	}
	if p.Model == TextOnlyModel {
		return Reply{Status: http.StatusBadRequest, ErrType: "invalid_request_error",
			ErrMessage: "image input is not supported for " + p.Model}, true
	}
	imgs := p.Messages[n-1].Images
	var b strings.Builder
	if len(imgs) == 1 {
		fmt.Fprintf(&b, "I see one image: %s.", imgs[0])
	} else {
		fmt.Fprintf(&b, "I see %d images:", len(imgs))
		for i, d := range imgs {
			fmt.Fprintf(&b, "\n%d. %s", i+1, d)
		}
	}
	b.WriteString("\n\n(I am the offline demo model: I can only tell an image's size and format.)")
	return Reply{Text: b.String()}, true
}
