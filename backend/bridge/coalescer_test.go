package bridge

import (
	"strings"
	"sync"
	"testing"
	"time"

	"airlock/backend/chat"
)

type recorder struct {
	mu     sync.Mutex
	names  []string
	deltas []DeltaEvent
	ends   []EndEvent
}

func (r *recorder) emit(name string, payload any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names = append(r.names, name)
	switch ev := payload.(type) {
	case DeltaEvent:
		r.deltas = append(r.deltas, ev)
	case EndEvent:
		r.ends = append(r.ends, ev)
	}
}

func TestFirstDeltaIsImmediate(t *testing.T) {
	r := &recorder{}
	c := NewCoalescer(r.emit, "c", "m", time.Hour)
	c.Add("Hel", "")
	if len(r.deltas) != 1 || r.deltas[0].Content != "Hel" || r.deltas[0].Seq != 1 {
		t.Fatalf("first delta not emitted at once: %+v", r.deltas)
	}
	c.Add("lo", "")
	if len(r.deltas) != 1 {
		t.Fatalf("second delta inside the interval must wait, got %d events", len(r.deltas))
	}
	c.End(chat.Message{ID: "m", Content: "Hello"})
	if len(r.deltas) != 2 || r.deltas[1].Content != "lo" {
		t.Fatalf("End must flush the pending text first: %+v", r.deltas)
	}
	if len(r.ends) != 1 || r.ends[0].Seq != 3 || r.ends[0].Message.Content != "Hello" {
		t.Fatalf("bad end event: %+v", r.ends)
	}
	if got := strings.Join(r.names, ","); got != "stream:delta,stream:delta,stream:end" {
		t.Fatalf("order: %s", got)
	}
}

func TestTimerFlushesPendingText(t *testing.T) {
	r := &recorder{}
	c := NewCoalescer(r.emit, "c", "m", 5*time.Millisecond)
	c.Add("a", "")
	c.Add("b", "r")
	deadline := time.Now().Add(2 * time.Second)
	for {
		r.mu.Lock()
		n := len(r.deltas)
		r.mu.Unlock()
		if n == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("pending text never flushed by the timer")
		}
		time.Sleep(time.Millisecond)
	}
	if r.deltas[1].Content != "b" || r.deltas[1].Reasoning != "r" || r.deltas[1].Seq != 2 {
		t.Fatalf("timer flush: %+v", r.deltas[1])
	}
}

// Many writers, many tokens: the concatenation of the events is exactly the
// text added, seqs are contiguous, and far fewer events than tokens are sent.
func TestNoLostTextAndContiguousSeq(t *testing.T) {
	r := &recorder{}
	c := NewCoalescer(r.emit, "c", "m", 2*time.Millisecond)
	const tokens = 20000
	var want strings.Builder
	for i := 0; i < tokens; i++ {
		tok := string(rune('a' + i%26))
		want.WriteString(tok)
		c.Add(tok, "")
		if i%2000 == 0 {
			time.Sleep(3 * time.Millisecond) // let some timer flushes happen mid-stream
		}
	}
	c.End(chat.Message{})
	c.Add("late", "") // ignored after End
	var got strings.Builder
	for i, d := range r.deltas {
		if d.Seq != i+1 {
			t.Fatalf("seq gap at %d: %d", i, d.Seq)
		}
		got.WriteString(d.Content)
	}
	if got.String() != want.String() {
		t.Fatalf("text lost: got %d bytes, want %d", got.Len(), want.Len())
	}
	if len(r.deltas) >= tokens/10 {
		t.Fatalf("not coalesced: %d events for %d tokens", len(r.deltas), tokens)
	}
	if len(r.ends) != 1 || r.ends[0].Seq != len(r.deltas)+1 {
		t.Fatalf("end event: %+v after %d deltas", r.ends, len(r.deltas))
	}
}

func TestEndWithoutTextAndTwice(t *testing.T) {
	r := &recorder{}
	c := NewCoalescer(r.emit, "c", "m", 0)
	c.End(chat.Message{Status: chat.StatusError})
	c.End(chat.Message{Status: chat.StatusComplete})
	if len(r.deltas) != 0 || len(r.ends) != 1 || r.ends[0].Seq != 1 || r.ends[0].Message.Status != chat.StatusError {
		t.Fatalf("end must be sent exactly once: deltas=%v ends=%v", r.deltas, r.ends)
	}
}

func BenchmarkCoalescerAdd(b *testing.B) {
	n := 0
	c := NewCoalescer(func(string, any) { n++ }, "c", "m", FrameInterval)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.Add("tok ", "")
	}
	c.End(chat.Message{})
	b.ReportMetric(float64(n), "events")
}
