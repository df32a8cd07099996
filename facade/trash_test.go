package facade

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"airlock/backend/chat"
	"airlock/backend/store"
)

// Delete moves a chat to the Trash; Restore brings it back; Delete forever
// takes only what is in the Trash.
func TestDeleteChatMovesToTrash(t *testing.T) {
	a := testApp(t)
	c, err := a.CreateChat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.AddMessage(a.ctx, chat.Message{ChatID: c.ID, Role: chat.RoleUser, Content: "hello"}); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteChatForever(c.ID); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("delete forever of a chat not in the Trash: %v", err)
	}
	if err := a.DeleteChat(c.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := a.ListChats(); len(list) != 0 {
		t.Fatalf("the deleted chat is still listed: %+v", list)
	}
	trash, err := a.ListTrash()
	if err != nil || len(trash) != 1 || trash[0].ID != c.ID || trash[0].PurgeAt <= trash[0].DeletedAt {
		t.Fatalf("ListTrash: %+v %v", trash, err)
	}
	back, err := a.RestoreChat(c.ID)
	if err != nil || back.ID != c.ID {
		t.Fatalf("RestoreChat: %+v %v", back, err)
	}
	if msgs, _ := a.ListMessages(c.ID); len(msgs) != 1 {
		t.Fatalf("restored chat has %d messages, want 1", len(msgs))
	}
	_ = a.DeleteChat(c.ID)
	if err := a.DeleteChatForever(c.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.RestoreChat(c.ID); err == nil {
		t.Fatal("a chat deleted forever came back")
	}
	d, _ := a.CreateChat()
	_ = a.DeleteChat(d.ID)
	if n, err := a.EmptyTrash(); err != nil || n != 1 {
		t.Fatalf("EmptyTrash: %d %v", n, err)
	}
}

// At start-up (and every hour) what has been in the Trash for 30 days goes;
// what went there since stays.
func TestKeepTrashPurgesWhatIsDue(t *testing.T) {
	a := testApp(t)
	old, _ := a.CreateChat()
	recent, _ := a.CreateChat()
	_ = a.DeleteChat(old.ID)
	_ = a.DeleteChat(recent.ID)
	// Age the first one, in the real file, to 31 days ago.
	db, err := sql.Open("sqlite", filepath.Join(a.dataDir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("UPDATE chats SET deleted_at = ? WHERE id = ?", chat.Now()-31*24*3600*1000, old.ID); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.keepTrash(ctx, time.Hour); close(done) }()
	var trash []chat.TrashedChat
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if trash, _ = a.ListTrash(); len(trash) < 2 {
			break
		}
	}
	cancel()
	<-done // it stops with its context
	if len(trash) != 1 || trash[0].ID != recent.ID {
		t.Fatalf("Trash after the start-up purge: %+v", trash)
	}
	if _, err := a.RestoreChat(old.ID); err == nil {
		t.Fatal("the chat due for purge came back")
	}
}
