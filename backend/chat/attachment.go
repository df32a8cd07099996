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
	Sees string `json:"sees"`
	// Source: "user", "learned" (from a refusal) or "server" (the server's
	// model list or model card).
	Source string `json:"source"`
	Reason string `json:"reason,omitempty"`
	// Server is what the server says ("yes", "no", "" when it does not
	// say or could not be asked), whatever wins.
	Server string `json:"server,omitempty"`
}

// WithServer folds in what the server says. The user's word comes first;
// then what a refusal taught, since a refusal is what the server did with
// this very model, after it declared what it takes (with the server first,
// a model it says sees images but that refuses them would cost a refused
// request and a retry every turn); then the server's word.
func (v Vision) WithServer(sees string) Vision {
	v.Server = sees
	if v.Sees == "" && sees != "" {
		v.Sees, v.Source = sees, "server"
	}
	return v
}
