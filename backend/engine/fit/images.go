package fit

import "math"

// What an image costs in a request, estimated the way each kind of server
// counts it (images are not text: the tokenizer cannot count them).
//
//   - OpenAI and the OpenAI-compatible servers: the image is fitted in a
//     2048×2048 square, then its shortest side scaled to 768; each 512-px
//     tile costs 170 tokens, plus 85 for the image (OpenAI's "high" detail,
//     the default for images this large). Local servers count their own
//     way (Gemma 3: 256 per image, Qwen2-VL: one per 28×28 patch), mostly
//     below this: the gauge errs on the side of room kept.
//   - Anthropic: width × height / 750, after the image is fitted in 1568 px
//     on its longest side and about 1.15 megapixels (at most ~1,600).
//
// An image whose size is not known counts as 1024×1024.

// ImageKind says how a server counts images.
type ImageKind int

const (
	ImagesOpenAI ImageKind = iota
	ImagesAnthropic
)

// UnknownSide is the side assumed for an image whose size is not known.
const UnknownSide = 1024

// ImageTokens estimates what one w×h image costs.
func ImageTokens(kind ImageKind, w, h int) int {
	if w <= 0 || h <= 0 {
		w, h = UnknownSide, UnknownSide
	}
	fw, fh := float64(w), float64(h)
	if kind == ImagesAnthropic {
		if long := max(fw, fh); long > 1568 {
			fw, fh = fw*1568/long, fh*1568/long
		}
		const maxPixels = 1_150_000
		if px := fw * fh; px > maxPixels {
			s := math.Sqrt(maxPixels / px)
			fw, fh = fw*s, fh*s
		}
		return max(1, int(fw*fh/750))
	}
	if long := max(fw, fh); long > 2048 {
		fw, fh = fw*2048/long, fh*2048/long
	}
	if short := min(fw, fh); short > 768 {
		fw, fh = fw*768/short, fh*768/short
	}
	tiles := ceilDiv(fw, 512) * ceilDiv(fh, 512)
	return 85 + 170*tiles
}

func ceilDiv(x, d float64) int {
	n := int(x / d)
	if float64(n)*d < x {
		n++
	}
	return max(n, 1)
}
