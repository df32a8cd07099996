package fit

import (
	"strings"
	"testing"

	"airlock/backend/llm"
)

// The estimates per server kind, worked by hand from each one's documented
// rule (images.go).
func TestImageTokens(t *testing.T) {
	for _, tc := range []struct {
		kind ImageKind
		w, h int
		want int
	}{
		{ImagesOpenAI, 512, 512, 85 + 170*1},           // one tile
		{ImagesOpenAI, 1024, 1024, 85 + 170*4},         // shortest side to 768: 2×2 tiles
		{ImagesOpenAI, 4096, 2048, 85 + 170*6},         // into 2048×1024, then 1536×768: 3×2
		{ImagesOpenAI, 100, 3000, 85 + 170*4},          // 68×2048: 1×4 tiles
		{ImagesOpenAI, 0, 0, 85 + 170*4},               // unknown: as 1024×1024
		{ImagesAnthropic, 1000, 1000, 1333},            // 1,000,000 / 750
		{ImagesAnthropic, 200, 200, 53},                // 40,000 / 750
		{ImagesAnthropic, 4000, 3000, 1533},            // fitted to about 1.15 MP
		{ImagesAnthropic, 3136, 200, 1568 * 100 / 750}, // longest side to 1568
	} {
		if got := ImageTokens(tc.kind, tc.w, tc.h); got != tc.want {
			t.Errorf("ImageTokens(%d, %d×%d) = %d, want %d", tc.kind, tc.w, tc.h, got, tc.want)
		}
	}
}

// A message's images count in what the request takes, in the report's
// Images, and (with its text files) in the Attachments part, not in the
// conversation's.
func TestFitCountsAttachments(t *testing.T) {
	c := quarter{}
	block := "File: a.txt\n```\n" + strings.Repeat("x", 100) + "\n```"
	msgs := []Message{
		{Message: llm.Message{Role: "system", Content: "sys"}},
		{Message: llm.Message{Role: "user", Content: "look\n\n" + block, ImageURLs: []string{"data:image/png;base64,AA=="}},
			Images: 765, Files: c.Count(block)},
	}
	_, rep, err := Fit(msgs, Budget{Window: 100_000, Reserve: 1000}, c)
	if err != nil {
		t.Fatal(err)
	}
	text := Tokens(msgs[0].Message, c) + Tokens(msgs[1].Message, c)
	if rep.Tokens != text+765 || rep.Images != 765 {
		t.Errorf("Tokens %d, Images %d; want %d and 765", rep.Tokens, rep.Images, text+765)
	}
	if want := 765 + c.Count(block); rep.Parts.Attachments != want {
		t.Errorf("Attachments part %d, want %d", rep.Parts.Attachments, want)
	}
	if rep.Parts.History != Tokens(msgs[1].Message, c)-c.Count(block) {
		t.Errorf("History part %d counts the attachments too", rep.Parts.History)
	}
	// A window too small for the image says so rather than leave it uncounted.
	if _, _, err := Fit(msgs, Budget{Window: 700, Reserve: 100}, c); err == nil {
		t.Error("a request whose image alone overflows the window fitted")
	}
}
