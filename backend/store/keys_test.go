package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"airlock/backend/chat"
)

// fakeKeyring is a keychain in memory; down makes every call fail, as a
// keychain that cannot be reached does.
type fakeKeyring struct {
	m    map[string]string
	down bool
}

var errDown = errors.New("keychain unreachable")

func (k *fakeKeyring) Get(name string) (string, error) {
	if k.down {
		return "", errDown
	}
	v, ok := k.m[name]
	if !ok {
		return "", ErrNoKey
	}
	return v, nil
}

func (k *fakeKeyring) Set(name, secret string) error {
	if k.down {
		return errDown
	}
	k.m[name] = secret
	return nil
}

func (k *fakeKeyring) Delete(name string) error {
	if k.down {
		return errDown
	}
	delete(k.m, name)
	return nil
}

func rawColumn(t *testing.T, s *Store, id string) string {
	t.Helper()
	var v string
	if err := s.db.QueryRow("SELECT api_key FROM providers WHERE id = ?", id).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// fileHolds says whether the database's files on disk hold b anywhere
// (the WAL included, and free pages).
func fileHolds(t *testing.T, s *Store, b string) bool {
	t.Helper()
	for _, f := range []string{s.Path(), s.Path() + "-wal"} {
		data, err := os.ReadFile(f)
		if err == nil && bytes.Contains(data, []byte(b)) {
			return true
		}
	}
	return false
}

// A realistic key: long, so that a page rewritten in place would keep a
// part of it.
const oldKey = "sk-proj-OLDKEY-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"

func TestAPIKeysLiveInTheKeychain(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}

	// Without a keychain, keys stay in the (owner-only) database: the
	// fallback, as before.
	old, err := s.SaveProvider(ctx, chat.Provider{Name: "Old", BaseURL: "https://a.example/v1", APIKey: oldKey})
	if err != nil {
		t.Fatal(err)
	}
	if rawColumn(t, s, old.ID) != oldKey || s.KeyStorage() != KeysInDatabase {
		t.Fatalf("fallback: column %q, storage %q", rawColumn(t, s, old.ID), s.KeyStorage())
	}

	// A keychain appears (at the next start): existing keys move into it,
	// and leave no trace in the database's files.
	s.Close()
	if !fileHolds(t, s, oldKey) {
		t.Fatal("the test needs the key written in the file first")
	}
	if s, err = OpenDir(dir); err != nil {
		t.Fatal(err)
	}
	kr := &fakeKeyring{m: map[string]string{}}
	moved, err := s.UseKeyring(ctx, kr)
	if err != nil || moved != 1 {
		t.Fatalf("UseKeyring: %d %v", moved, err)
	}
	if s.KeyStorage() != KeysInKeychain || rawColumn(t, s, old.ID) == oldKey || kr.m["provider/"+old.ID] != oldKey {
		t.Fatalf("not moved: column %q, keyring %v", rawColumn(t, s, old.ID), kr.m)
	}
	for i := 0; i+12 <= len(oldKey); i += 4 {
		if fileHolds(t, s, oldKey[i:i+12]) {
			t.Errorf("a part of the moved key (%s) is still in the database's files", oldKey[i:i+12])
		}
	}
	if p, _ := s.GetProvider(ctx, old.ID); p.APIKey != oldKey {
		t.Errorf("GetProvider key = %q", p.APIKey)
	}

	// New keys go straight to the keychain.
	p, err := s.SaveProvider(ctx, chat.Provider{Name: "New", BaseURL: "https://b.example/v1", APIKey: " sk-NEW-KEY-0002\n"})
	if err != nil || p.APIKey != "sk-NEW-KEY-0002" {
		t.Fatalf("save: %+v %v", p, err)
	}
	if fileHolds(t, s, "sk-NEW-KEY-0002") || kr.m["provider/"+p.ID] != "sk-NEW-KEY-0002" {
		t.Fatal("a new key reached the database")
	}
	ps, _ := s.ListProviders(ctx)
	keys := map[string]string{}
	for _, x := range ps {
		keys[x.ID] = x.APIKey
	}
	if keys[p.ID] != "sk-NEW-KEY-0002" || keys[old.ID] != oldKey {
		t.Errorf("listed keys: %v", keys)
	}

	// Clearing a key removes it from the keychain.
	p.APIKey = ""
	if _, err := s.SaveProvider(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, ok := kr.m["provider/"+p.ID]; ok || rawColumn(t, s, p.ID) != "" {
		t.Errorf("cleared key kept: %v %q", kr.m, rawColumn(t, s, p.ID))
	}

	// The keychain cannot be reached: the key is not lost, the provider
	// lists with no key, and saving the form back (empty key) keeps it.
	kr.down = true
	got, err := s.GetProvider(ctx, old.ID)
	if err != nil || got.APIKey != "" {
		t.Fatalf("unreachable keychain: %+v %v", got, err)
	}
	got.Model = "m2"
	if _, err := s.SaveProvider(ctx, got); err != nil {
		t.Fatal(err)
	}
	kr.down = false
	if got, _ := s.GetProvider(ctx, old.ID); got.APIKey != oldKey || got.Model != "m2" {
		t.Errorf("after the keychain came back: %+v", got)
	}

	// Deleting the provider deletes its key.
	if err := s.DeleteProvider(ctx, old.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := kr.m["provider/"+old.ID]; ok {
		t.Error("a deleted provider's key stayed in the keychain")
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
}

// With the keychain asked off the start-up path, key access waits for the
// answer: a save made meanwhile lands in the keychain, never in the file.
func TestKeyAccessWaitsForADeferredKeychain(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	s.DeferKeyring()

	saved := make(chan chat.Provider, 1)
	go func() {
		p, err := s.SaveProvider(ctx, chat.Provider{Name: "P", BaseURL: "https://a.example/v1", APIKey: "sk-WAITS-0001"})
		if err != nil {
			t.Error(err)
		}
		saved <- p
	}()
	select {
	case <-saved:
		t.Fatal("SaveProvider did not wait for the keychain's answer")
	case <-time.After(50 * time.Millisecond):
	}

	k := &fakeKeyring{m: map[string]string{}}
	if _, err := s.UseKeyring(ctx, k); err != nil {
		t.Fatal(err)
	}
	p := <-saved
	if rawColumn(t, s, p.ID) != inKeyring || k.m[keyName(p.ID)] != "sk-WAITS-0001" {
		t.Fatalf("column %q, keychain %v", rawColumn(t, s, p.ID), k.m)
	}
	if s.KeyStorage() != KeysInKeychain {
		t.Fatal(s.KeyStorage())
	}

	// Without a keychain the answer is "the database", and nothing waits.
	s2 := newStore(t)
	s2.DeferKeyring()
	s2.NoKeyring()
	if s2.KeyStorage() != KeysInDatabase {
		t.Fatal(s2.KeyStorage())
	}
}
