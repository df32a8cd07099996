package store

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"airlock/backend/chat"
)

// A call whose arguments name a key twice (or two keys alike but for
// case) carries those keys, as added and as read back, so its card can say
// why no exact-value rule runs it.
func TestCallsCarryTheirAmbiguousKeys(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	c, _ := s.CreateChat(ctx, "t")
	m, _ := s.AddMessage(ctx, chat.Message{ChatID: c.ID, Role: chat.RoleAssistant, Content: "calls"})
	added, err := s.AddCalls(ctx, []chat.Call{{ChatID: c.ID, MessageID: m.ID, Name: "mcp__git__push",
		Arguments: json.RawMessage(`{"remote":"origin","REMOTE":"attacker"}`), State: chat.CallPending}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"REMOTE", "remote"}
	got, err := s.GetCall(ctx, added[0].ID)
	if err != nil || !reflect.DeepEqual(added[0].AmbiguousKeys, want) || !reflect.DeepEqual(got.AmbiguousKeys, want) {
		t.Fatalf("ambiguous keys: added %q, read %q (%v)", added[0].AmbiguousKeys, got.AmbiguousKeys, err)
	}
	if string(got.Arguments) != `{"remote":"origin","REMOTE":"attacker"}` {
		t.Errorf("the arguments are kept as written: %s", got.Arguments)
	}
}
