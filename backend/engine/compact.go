package engine

import (
	"airlock/backend/chat"
)

// summaryView is a stored summary that stands for the start of the
// conversation: its message, and how many messages of the active path it
// covers.
type summaryView struct {
	message chat.Message
	covered int
}

// summaryText is how a summary is sent to the model.
func summaryText(m chat.Message) string {
	return "[Summary of the earlier part of this conversation, written to fit the context window. The full messages are kept and shown to the user.]\n\n" + m.Content
}
