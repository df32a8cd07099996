package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func auditSample() []chat.AuditEntry {
	return []chat.AuditEntry{
		{ID: 1, UID: "u1", ChatID: "c", CallID: "k1", Tool: "read_file", Decision: chat.AuditApproved, DecidedBy: "rule:4", RuleID: 4,
			Rule: "allow read_file with paths under docs · always", At: 1714554240000, Arguments: json.RawMessage(`{"path":"docs/a"}`),
			RunArguments: json.RawMessage(`{"path":"docs/a"}`)},
		{ID: 2, UID: "u2", ChatID: "c", CallID: "k2", Tool: "write_file", Decision: chat.AuditDenied, DecidedBy: chat.ByUser,
			Detail: "=HYPERLINK(\"http://x\")", At: 1714554241000, Arguments: json.RawMessage(`{"path":"a","content":"line1\nline2, \"q\""}`),
			Preview: json.RawMessage(`{"diff":"+x"}`), ResultStatus: chat.ToolDenied},
	}
}

func TestAuditJSONLines(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewAuditWriter(&buf, "jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range auditSample() {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("one decision a line: %q", buf.String())
	}
	var e chat.AuditEntry
	if err := json.Unmarshal([]byte(lines[1]), &e); err != nil || e.UID != "u2" || e.Detail != "=HYPERLINK(\"http://x\")" ||
		e.RunArguments != nil && string(e.RunArguments) != "null" || string(e.Preview) != `{"diff":"+x"}` {
		t.Fatalf("line 2: %s (%v)", lines[1], err)
	}
	if !strings.Contains(lines[0], `"runArguments":{"path":"docs/a"}`) {
		t.Errorf("line 1: %s", lines[0])
	}
}

func TestAuditCSV(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewAuditWriter(&buf, "CSV")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range auditSample() {
		w.Write(e)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || strings.Join(rows[0], ",") != strings.Join(AuditCSVHeader, ",") {
		t.Fatalf("header and two rows: %q", rows)
	}
	col := func(name string) int {
		for i, h := range AuditCSVHeader {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	r1, r2 := rows[1], rows[2]
	if r1[col("time")] != "2024-05-01T09:04:00.000Z" || r1[col("decided_by")] != "rule:4" || r1[col("rule_id")] != "4" ||
		r1[col("arguments")] != `{"path":"docs/a"}` {
		t.Errorf("row 1: %q", r1)
	}
	if r2[col("detail")] != `'=HYPERLINK("http://x")` {
		t.Errorf("a formula must not reach a spreadsheet as one: %q", r2[col("detail")])
	}
	if r2[col("arguments")] != `{"path":"a","content":"line1\nline2, \"q\""}` || r2[col("result_status")] != "denied" || r2[col("run_arguments")] != "" {
		t.Errorf("row 2: %q", r2)
	}
	if _, err := NewAuditWriter(&buf, "xml"); !errors.Is(err, chat.ErrInvalid) {
		t.Errorf("unknown format: %v", err)
	}
}

func TestDeciderNames(t *testing.T) {
	for by, want := range map[string]string{"rule:5": "rule 5", chat.ByNewMessage: "a new message (nobody decided)",
		chat.ByRuleChat: "an always-allow rule for this chat", chat.ByUser: "you"} {
		if got := deciderName(by); got != want {
			t.Errorf("deciderName(%q) = %q, want %q", by, got, want)
		}
	}
}
