package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"reflect"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

func hashOf(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func TestCheckpointRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	mt := time.Unix(1700000000, 123456789)
	first := []workspace.CheckpointPath{
		{Path: "notes.md", Follow: true, Before: workspace.Image{Kind: workspace.EntryFile, Mode: 0o600, Size: 5, ModTime: mt, Hash: hashOf("hello")},
			Content: []byte("hello"), Kept: true},
		{Path: "new", Before: workspace.Image{Kind: workspace.EntryAbsent}, Kept: true},
		{Path: "empty.txt", Before: workspace.Image{Kind: workspace.EntryFile, Mode: 0o644, Hash: hashOf("")}, Content: []byte{}, Kept: true},
	}
	cp := workspace.Checkpoint{ChatID: c.ID, CallID: "call1", Tool: "write_file", Dir: "/tmp/x", CreatedAt: 42, Paths: first}
	if err := s.CreateCheckpoint(ctx, &cp); err != nil || cp.ID == "" {
		t.Fatalf("create: %q %v", cp.ID, err)
	}
	more := []workspace.CheckpointPath{
		{Path: "big.bin", Before: workspace.Image{Kind: workspace.EntryFile, Size: 11 << 20, ModTime: mt}, Kept: false, Note: "too large to keep"},
		{Path: "unchanged", Before: workspace.Image{Kind: workspace.EntryDir, Mode: 0o755}, Kept: true},
		{Path: "bin\x01", Before: workspace.Image{Kind: workspace.EntryFile, Size: 4, Hash: hashOf("\x00\xff\x00\x01")}, Content: []byte("\x00\xff\x00\x01"), Kept: true},
	}
	if err := s.AddCheckpointPaths(ctx, cp.ID, more); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetCheckpoint(ctx, cp.ID)
	if err != nil || got.Complete || len(got.Paths) != 6 || got.Bytes != 9 {
		t.Fatalf("incomplete: %+v %v", got, err)
	}
	if got.Blocker() != workspace.BlockIncomplete {
		t.Fatalf("blocker %q", got.Blocker())
	}
	// The change is done: all but "unchanged" were touched.
	var done []workspace.CheckpointPath
	for _, p := range append(append([]workspace.CheckpointPath{}, first...), more...) {
		if p.Path == "unchanged" {
			continue
		}
		p.After = workspace.Image{Kind: workspace.EntryFile, Mode: 0o644, Size: 3, ModTime: mt, Hash: hashOf("new")}
		done = append(done, p)
	}
	if err := s.FinishCheckpoint(ctx, cp.ID, done); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetCheckpoint(ctx, cp.ID)
	if err != nil || !got.Complete || len(got.Paths) != 5 || got.Bytes != 9 {
		t.Fatalf("complete: %+v %v", got, err)
	}
	byPath := map[string]workspace.CheckpointPath{}
	for _, p := range got.Paths {
		byPath[p.Path] = p
	}
	n := byPath["notes.md"]
	if !n.Follow || !n.Kept || string(n.Content) != "hello" || n.Before.Mode != 0o600 || !n.Before.ModTime.Equal(mt) ||
		!bytes.Equal(n.Before.Hash, hashOf("hello")) || !n.After.Same(done[0].After) {
		t.Fatalf("notes.md: %+v", n)
	}
	if e := byPath["empty.txt"]; e.Content == nil || len(e.Content) != 0 || !e.Kept {
		t.Fatalf("an empty file is kept as empty: %+v", e)
	}
	if b := byPath["big.bin"]; b.Kept || b.Content != nil || b.Note != "too large to keep" || b.Before.Hash != nil {
		t.Fatalf("big.bin: %+v", b)
	}
	if b := byPath["bin\x01"]; string(b.Content) != "\x00\xff\x00\x01" {
		t.Fatalf("binary bytes: %q", b.Content)
	}
	if byPath["new"].Before.Kind != workspace.EntryAbsent || byPath["new"].Before.Hash != nil {
		t.Fatalf("new: %+v", byPath["new"])
	}
	if got.Blocker() != workspace.BlockNotKept {
		t.Fatalf("big.bin blocks undo: %q", got.Blocker())
	}

	// Listings: without contents, the paths not kept first, limited.
	list, err := s.ListCheckpoints(ctx, c.ID, 10, 2)
	if err != nil || len(list) != 1 || list[0].PathCount != 5 || len(list[0].Paths) != 2 || list[0].Paths[0].Path != "big.bin" {
		t.Fatalf("list: %+v %v", list, err)
	}
	for _, p := range list[0].Paths {
		if p.Content != nil {
			t.Fatal("a listing carries no contents")
		}
	}
	if list[0].Blocker() != workspace.BlockNotKept {
		t.Fatalf("the listing sees the blocker")
	}

	// Finishing with nothing changed deletes it.
	empty := workspace.Checkpoint{ChatID: c.ID, Dir: "/tmp/x", Paths: first[:1]}
	if err := s.CreateCheckpoint(ctx, &empty); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishCheckpoint(ctx, empty.ID, nil); err != nil {
		t.Fatal(err)
	}
	_, err = s.GetCheckpoint(ctx, empty.ID)
	wantErr(t, err, chat.ErrNotFound)
	if err := s.AddCheckpointPaths(ctx, cp.ID, more[:1]); err == nil {
		t.Fatal("a complete checkpoint takes no more paths")
	}
}

func addCheckpoint(t *testing.T, s *Store, chatID string, size int) string {
	t.Helper()
	ctx := context.Background()
	data := bytes.Repeat([]byte("x"), size)
	p := workspace.CheckpointPath{Path: "f", Before: workspace.Image{Kind: workspace.EntryFile, Size: int64(size)}, Content: data, Kept: true}
	cp := workspace.Checkpoint{ChatID: chatID, Dir: "/d", CreatedAt: chat.Now(), Paths: []workspace.CheckpointPath{p}}
	if err := s.CreateCheckpoint(ctx, &cp); err != nil {
		t.Fatal(err)
	}
	p.After = workspace.Image{Kind: workspace.EntryAbsent}
	if err := s.FinishCheckpoint(ctx, cp.ID, []workspace.CheckpointPath{p}); err != nil {
		t.Fatal(err)
	}
	return cp.ID
}

func TestPruneCheckpointsDropsOldestFirst(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	other, _ := s.CreateChat(ctx, "y")
	ids := []string{addCheckpoint(t, s, c.ID, 400), addCheckpoint(t, s, c.ID, 400), addCheckpoint(t, s, c.ID, 400)}
	addCheckpoint(t, s, other.ID, 4000)
	n, err := s.PruneCheckpoints(ctx, c.ID, 1000)
	if err != nil || n != 1 {
		t.Fatalf("dropped %d %v", n, err)
	}
	first, _ := s.GetCheckpoint(ctx, ids[0])
	if first.DroppedAt == 0 || first.Paths[0].Content != nil || first.Blocker() != workspace.BlockDropped {
		t.Fatalf("the oldest is dropped: %+v", first)
	}
	for _, id := range ids[1:] {
		if cp, _ := s.GetCheckpoint(ctx, id); cp.DroppedAt != 0 || len(cp.Paths[0].Content) != 400 {
			t.Fatalf("the newer ones stay: %+v", cp)
		}
	}
	bytes, dropped, err := s.CheckpointTotals(ctx, c.ID)
	if err != nil || bytes != 800 || dropped != 1 {
		t.Fatalf("totals %d %d %v", bytes, dropped, err)
	}
	if b, d, _ := s.CheckpointTotals(ctx, other.ID); b != 4000 || d != 0 {
		t.Fatal("another chat's checkpoints do not count")
	}
	// An undone checkpoint keeps nothing and counts for nothing.
	if err := s.MarkCheckpointUndone(ctx, ids[2], 99); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkCheckpointUndone(ctx, ids[2], 100); err == nil {
		t.Fatal("undone twice")
	}
	cp, _ := s.GetCheckpoint(ctx, ids[2])
	if cp.UndoneAt != 99 || cp.Paths[0].Content != nil || cp.Blocker() != workspace.BlockUndone {
		t.Fatalf("undone: %+v", cp)
	}
	if b, _, _ := s.CheckpointTotals(ctx, c.ID); b != 400 {
		t.Fatalf("kept after undo: %d", b)
	}
	// Deleting the chat deletes its checkpoints.
	if err := s.DeleteChat(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	s.db.QueryRowContext(ctx, "SELECT count(*) FROM checkpoint_paths").Scan(&left)
	if left != 1 {
		t.Fatalf("paths left: %d (only the other chat's)", left)
	}
}

func TestOverlayLayerRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "x")
	mt := time.Unix(1700000000, 5)
	st := workspace.OverlayState{
		Dir: "/home/me/project",
		Files: []workspace.File{
			{Path: "docs", IsDir: true, Mode: 0o755, ModTime: mt},
			{Path: "docs/new.md", Mode: 0o644, ModTime: mt, Content: []byte("brand new\n")},
			{Path: "empty.txt", Mode: 0o600, ModTime: mt, Content: []byte{}},
			{Path: "logo.png", Mode: 0o644, ModTime: mt, Content: []byte("\x89PNG\x00")},
		},
		Hidden: []string{"build", "logo.png"},
		Seen: []workspace.SeenPath{
			{Path: "build", Exists: true, IsDir: true, ModTime: mt},
			{Path: "docs/new.md"},
			{Path: "logo.png", Exists: true, Size: 5, ModTime: mt, Hash: hashOf("x")},
		},
	}
	if err := s.SaveOverlay(ctx, c.ID, st); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadOverlay(ctx, c.ID, st.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, st) {
		t.Fatalf("round trip:\n%+v\n---\n%+v", st, got)
	}
	if other, _ := s.LoadOverlay(ctx, c.ID, "/elsewhere"); !other.Empty() || other.Dir != "/elsewhere" {
		t.Fatalf("per folder: %+v", other)
	}
	// Saving again replaces; an empty state removes.
	st.Files, st.Hidden = st.Files[:1], nil
	if err := s.SaveOverlay(ctx, c.ID, st); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.LoadOverlay(ctx, c.ID, st.Dir); len(got.Files) != 1 || len(got.Hidden) != 0 || len(got.Seen) != 3 {
		t.Fatalf("replaced: %+v", got)
	}
	if err := s.SaveOverlay(ctx, c.ID, workspace.OverlayState{Dir: st.Dir}); err != nil {
		t.Fatal(err)
	}
	var n int
	s.db.QueryRowContext(ctx, "SELECT (SELECT count(*) FROM overlay_entries) + (SELECT count(*) FROM overlay_seen)").Scan(&n)
	if n != 0 {
		t.Fatalf("%d rows left", n)
	}
}
