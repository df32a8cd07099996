package chat

// Attachment is a file attached to a message. Its bytes are stored once per
// content (SHA256), however many messages use them.
type Attachment struct {
	Name   string `json:"name"`            // as attached, made safe (no control characters, no path)
	Kind   string `json:"kind"`            // "image" or "text"
	MIME   string `json:"mime"`            // sniffed from the bytes for images
	Size   int64  `json:"size"`            // bytes
	SHA256 string `json:"sha256"`          // hex: the content address
	Width  int    `json:"width,omitempty"` // pixels, for images
	Height int    `json:"height,omitempty"`
}

// AttachmentData is an attachment with its bytes.
type AttachmentData struct {
	Attachment
	Data []byte
}

// NewAttachment is a file as the UI sends it: a name and the bytes.
type NewAttachment struct {
	Name string `json:"name"`
	Data []byte `json:"data"` // base64 in JSON
}

// Vision is what is known of whether a model takes images.
type Vision struct {
	ProviderID string `json:"providerId"`
	Model      string `json:"model"`
	// Sees: "yes", "no" or "" (unknown: images are sent).
	Sees   string `json:"sees"`
	Source string `json:"source"` // "learned" (from a refusal) or "user"
	Reason string `json:"reason,omitempty"`
}
