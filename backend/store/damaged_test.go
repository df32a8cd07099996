package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// damagePages overwrites the last pages but one of a database file.
func damagePages(t *testing.T, p string, pages int) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) - (pages+1)*4096; i < len(b)-4096; i++ {
		b[i] = 0xA5
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Damage found by a query, on a database too large to check at Open,
// reads as the damaged-database sentence, never as SQLite's raw
// "database disk image is malformed (11)" (issue 31, item 14).
func TestDamageFoundWhileRunningSaysSo(t *testing.T) {
	defer func(old int64) { checkAtOpenLimit = old }(checkAtOpenLimit)
	checkAtOpenLimit = 0 // every database counts as large
	p := writtenStore(t)
	damagePages(t, p, 1)
	s, err := Open(p)
	if err != nil {
		t.Fatalf("opened with the check left for later: %v", err)
	}
	defer s.Close()
	_, err = s.ListChats(context.Background())
	var de *DamagedError
	if !errors.As(err, &de) || strings.Contains(err.Error(), "(11)") || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("ListChats on a damaged file: %v", err)
	}
}
