package workspace_test

import (
	"errors"
	"io/fs"
	"strconv"
	"testing"

	"airlock/backend/chat"
	"airlock/backend/uitext"
	"airlock/backend/workspace"
	"airlock/backend/workspace/workspacetest"
)

// Every refused path comes with its sentence coded for the UI: a code, the
// path as a parameter, and the English the model reads.
func TestRefusedPathsCarryTheirCodeAndPath(t *testing.T) {
	for _, c := range workspacetest.HostilePaths {
		_, err := workspace.CleanPath(c.Path)
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Text == nil {
			t.Fatalf("%q: no coded sentence: %v", c.Path, err)
		}
		tx := ce.Text
		if tx.Code == "" || tx.English != ce.Message {
			t.Errorf("%q: text %+v, message %q", c.Path, tx, ce.Message)
		}
		if tx.Code != "path_too_long" && tx.Params["path"] == nil {
			t.Errorf("%q: no path parameter: %+v", c.Path, tx)
		}
	}
	_, err := workspace.CleanPath("../x")
	tx, ok := uitext.Whole(err)
	if !ok || tx.Code != "path_leaves" || tx.Params["path"] != strconv.Quote("../x") {
		t.Fatalf("../x: %+v", tx)
	}
}

func TestFilesystemErrorsAreCoded(t *testing.T) {
	tx, ok := uitext.Whole(workspace.FSError("notes.md", fs.ErrNotExist))
	if !ok || tx.Code != "fs_not_found" || tx.Params["path"].(uitext.Text).English != "notes.md" {
		t.Fatalf("%+v", tx)
	}
	// The root is a sentence of its own, translated in its turn.
	tx, _ = uitext.Whole(workspace.FSError(".", fs.ErrPermission))
	if root := tx.Params["path"].(uitext.Text); tx.Code != "fs_permission" || root.Code != "ws_root" || tx.English != "permission denied for the workspace root" {
		t.Fatalf("%+v", tx)
	}
	_, err := workspace.OpenFolder(t.TempDir() + "/gone")
	if tx, ok := uitext.Whole(err); !ok || tx.Code != "ws_folder_missing" || tx.Params["folder"] == "" {
		t.Fatalf("missing folder: %+v %v", tx, err)
	}
}
