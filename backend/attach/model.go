package attach

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"strings"

	"golang.org/x/image/draw"
)

// DataURL is an image as sent to a model, a data: URL. An image whose
// longest side is over MaxSentSide is scaled down to it first (as PNG, or
// JPEG for a JPEG); the stored original is not touched. If it cannot be
// decoded, it goes as it is.
func DataURL(mime string, data []byte) string {
	if m, d, ok := scaleDown(mime, data); ok {
		mime, data = m, d
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
}

func scaleDown(mime string, data []byte) (string, []byte, bool) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || max(cfg.Width, cfg.Height) <= MaxSentSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return "", nil, false
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return "", nil, false
	}
	w, h := cfg.Width, cfg.Height
	if w >= h {
		w, h = MaxSentSide, max(1, h*MaxSentSide/w)
	} else {
		w, h = max(1, w*MaxSentSide/h), MaxSentSide
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	var out bytes.Buffer
	if mime == "image/jpeg" {
		err = jpeg.Encode(&out, dst, &jpeg.Options{Quality: 88})
	} else {
		mime, err = "image/png", png.Encode(&out, dst)
	}
	if err != nil {
		return "", nil, false
	}
	return mime, out.Bytes(), true
}

// TextBlock is a text file as the model reads it: its name, then its text
// fenced so that a fence inside the file cannot close the block.
func TextBlock(name string, data []byte) string {
	text := strings.ToValidUTF8(string(data), "\uFFFD")
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fmt.Sprintf("File: %s\n%s\n%s\n%s", name, fence, strings.TrimRight(text, "\n"), fence)
}

// ImageNote stands for an image a model cannot take.
func ImageNote(name string, width, height int) string {
	return fmt.Sprintf("[image %s (%d×%d) attached: this model does not take images, so it is not sent]", name, width, height)
}
