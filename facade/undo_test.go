package facade

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestUndoBindings(t *testing.T) {
	a := testApp(t)
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetWorkspace(c.ID, "folder", dir); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RunTool(c.ID, "write_file", []byte(`{"path":"a.txt","content":"after\n"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RunTool(c.ID, "write_file", []byte(`{"path":"b/new.txt","content":"new\n"}`)); err != nil {
		t.Fatal(err)
	}
	list, err := a.ListCheckpoints(c.ID)
	if err != nil || len(list.Checkpoints) != 2 || list.Limit != 200<<20 || list.FileLimit != 10<<20 || list.Bytes != 7 {
		t.Fatalf("list: %+v %v", list, err)
	}
	newest, oldest := list.Checkpoints[0], list.Checkpoints[1]
	if oldest.Tool != "write_file" || oldest.CallID != "" || !oldest.Undoable || len(oldest.Paths) != 1 ||
		oldest.Paths[0] != (CheckpointPathView{Path: "a.txt", Op: "modified", Size: 7, Kept: true}) {
		t.Fatalf("oldest: %+v", oldest)
	}
	if newest.PathCount != 2 || newest.Paths[0].Op != "added" || !newest.Paths[0].IsDir {
		t.Fatalf("newest: %+v", newest)
	}

	// The file changed since: a conflict that names it, as JSON the UI reads.
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = a.UndoCheckpoint(oldest.ID)
	var e struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Paths   []struct{ Path, Reason string }
	}
	if err == nil || json.Unmarshal([]byte(err.Error()), &e) != nil || e.Code != "undo_conflict" ||
		len(e.Paths) != 1 || e.Paths[0].Path != "a.txt" || e.Paths[0].Reason != "changed" {
		t.Fatalf("conflict: %v", err)
	}

	res, err := a.UndoCheckpoint(newest.ID)
	if err != nil || res.ChatID != c.ID || len(res.Restored) != 2 {
		t.Fatalf("undo: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); !os.IsNotExist(err) {
		t.Fatal("b/ is gone again")
	}
	list, _ = a.ListCheckpoints(c.ID)
	if !list.Checkpoints[0].Undone || list.Checkpoints[0].Undoable || list.Checkpoints[0].Blocker != "undone" {
		t.Fatalf("undone: %+v", list.Checkpoints[0])
	}
	if _, err := a.UndoCheckpoint(newest.ID); err == nil {
		t.Fatal("undone twice")
	}
}
