package mcp

import (
	"strings"
	"unicode/utf8"
)

// MaxInstructionsBytes caps a server's instructions (the "instructions" of
// its initialize result) as Airlock keeps them: they go into every system
// prompt of the chats that use the server, so a longer text is cut here,
// with a line saying so.
const MaxInstructionsBytes = 8 << 10

// InstructionsCutNote ends instructions cut at MaxInstructionsBytes.
const InstructionsCutNote = "[… cut: the server's instructions are longer than Airlock's 8 KB cap]"

// capInstructions trims a server's instructions and cuts them at
// MaxInstructionsBytes (on a rune boundary), saying whether it cut.
func capInstructions(text string) (string, bool) {
	text = strings.TrimSpace(strings.ToValidUTF8(text, "\uFFFD"))
	if len(text) <= MaxInstructionsBytes {
		return text, false
	}
	cut := MaxInstructionsBytes
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return strings.TrimSpace(text[:cut]) + "\n" + InstructionsCutNote, true
}
