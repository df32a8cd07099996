package store

import (
	"context"
	"testing"
)

func TestMCPGrantsLikeAPIKeys(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// No keychain: the database keeps it, sign-out erases it from the file.
	const grant = `{"token":{"access_token":"grant-secret-0123456789"}}`
	if err := s.SetMCPGrant(ctx, "linear", grant); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.MCPGrant(ctx, "linear"); g != grant || !s.HasMCPGrant(ctx, "linear") {
		t.Fatalf("saved grant = %q", g)
	}
	if err := s.SetMCPGrant(ctx, "linear", ""); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.MCPGrant(ctx, "linear"); g != "" || s.HasMCPGrant(ctx, "linear") {
		t.Fatalf("signed out, grant = %q", g)
	}
	if fileHolds(t, s, "grant-secret-0123456789") {
		t.Fatal("the signed-out token is still in the database files")
	}

	// A keychain: the grant goes there, the database only says so.
	kr := &fakeKeyring{m: map[string]string{}}
	if _, err := s.UseKeyring(ctx, kr); err != nil {
		t.Fatal(err)
	}
	if err := s.SetMCPGrant(ctx, "linear", grant); err != nil {
		t.Fatal(err)
	}
	if kr.m["mcp-grant/linear"] != grant || fileHolds(t, s, "grant-secret-0123456789") {
		t.Fatalf("keychain = %v", kr.m)
	}
	if g, _ := s.MCPGrant(ctx, "linear"); g != grant {
		t.Fatalf("read back %q", g)
	}
	_ = s.SetMCPGrant(ctx, "linear", "")
	if _, ok := kr.m["mcp-grant/linear"]; ok {
		t.Fatal("sign-out left the grant in the keychain")
	}
}
