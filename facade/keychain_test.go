package facade

import (
	"errors"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"airlock/backend/chat"
	"airlock/backend/export"
	"airlock/backend/store"
	"airlock/desktop"
)

// With a keychain that answers (go-keyring's in-memory mock stands in for
// Secret Service), a plain-text key moves into it and Info says so; with
// none (CI, Xvfb), keys stay in the database and Info says "database".
func TestKeychainOrFallback(t *testing.T) {
	const secret = "sk-live-PLANTED-0123456789abcdef"

	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any .service files"))
	a := testApp(t)
	p, err := a.store.SaveProvider(a.ctx, chat.Provider{Name: "P", BaseURL: "https://x.example/v1", APIKey: secret})
	if err != nil {
		t.Fatal(err)
	}
	if _, why := desktop.UseKeychain(a.store, desktop.SystemKeychain{}); why == nil {
		t.Fatal("a keychain that fails was used")
	}
	if got := a.Info().KeyStorage; got != store.KeysInDatabase {
		t.Fatalf("fallback KeyStorage = %q", got)
	}

	keyring.MockInit()
	moved, why := desktop.UseKeychain(a.store, desktop.SystemKeychain{})
	if why != nil || moved != 1 {
		t.Fatalf("UseKeychain: %d %v", moved, why)
	}
	if got, _ := keyring.Get(desktop.KeychainService, "provider/"+p.ID); got != secret {
		t.Fatalf("keychain holds %q", got)
	}
	if a.Info().KeyStorage != store.KeysInKeychain {
		t.Fatal("Info does not say keychain")
	}
	if got, _ := a.store.GetProvider(a.ctx, p.ID); got.APIKey != secret {
		t.Fatalf("provider key = %q", got.APIKey)
	}

	t.Setenv("AIRLOCK_KEYCHAIN", "off")
	if kc, _ := desktop.OpenKeychain(desktop.SystemKeychain{}); kc != nil {
		t.Fatal("AIRLOCK_KEYCHAIN=off still used the keychain")
	}

	// Exports never carry keys, wherever they are kept.
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	b, err := export.Build(a.ctx, a.store, []string{c.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"json", "md", "html"} {
		var out strings.Builder
		if err := export.Write(&out, b, f); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), secret) {
			t.Errorf("the %s export carries the API key", f)
		}
	}
}
