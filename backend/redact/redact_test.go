package redact

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                                      "",
		"http://127.0.0.1:8080/v1":              "http://127.0.0.1:8080/v1",
		"https://user:sk-secret@example.com/v1": "https://user:•••@example.com/v1",
		"https://ghp_token123@github.com/x":     "https://•••@github.com/x",
		"https://h/v1?api_key=k-1&api-version=2024-06-01&token=t": "https://h/v1?api_key=•••&api-version=2024-06-01&token=•••",
		"https://h/v1?key=abc#frag":                               "https://h/v1?key=•••#frag",
		"not a url at all":                                        "not a url at all",
	} {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	in := `Post "https://bob:hunter22@api.x.com/v1?key=AIzaSecret9&region=eu/chat": refused; ` +
		`{"api_key": "sk-live-123456"} access_token=tok_abcdef Authorization: Bearer eyJhbGciOi.x.y; echo sk-known-999`
	got := Text(in, "sk-known-999", "ab")
	for _, secret := range []string{"hunter22", "AIzaSecret9", "sk-live-123456", "tok_abcdef", "eyJhbGciOi", "sk-known-999"} {
		if strings.Contains(got, secret) {
			t.Errorf("Text shows %q: %s", secret, got)
		}
	}
	for _, kept := range []string{"bob:•••@api.x.com", "region=eu", "refused", `"api_key": "•••"`, "echo •••"} {
		if !strings.Contains(got, kept) {
			t.Errorf("Text lost %q: %s", kept, got)
		}
	}
	if got := Text("Could not connect to ftp://h/v1?token=abcdef: refused."); got != "Could not connect to ftp://h/v1?token=•••: refused." {
		t.Errorf("trailing punctuation: %q", got)
	}
	plain := "the folder a/b has 3 files; monkey business; key: the main one"
	if got := Text(plain); got != plain {
		t.Errorf("plain text changed: %q", got)
	}
}

func TestSecrets(t *testing.T) {
	got := Secrets("https://bob:pw12@h/v1?api_key=k123&api-version=1")
	if len(got) != 2 || got[0] != "pw12" || got[1] != "k123" {
		t.Errorf("Secrets = %q", got)
	}
}
