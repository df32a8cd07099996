package store

import (
	"context"
	"database/sql"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"airlock/backend/chat"
)

// Search.
//
// Two FTS5 indexes cover the text of every settled message (content and
// reasoning) and every tool call (name, arguments as proposed and as edited,
// result); migration 0004 keeps them in step with triggers:
//
//   - search_fts, unicode61 (case and diacritics folded): word search. The
//     query's words must all occur; the last one also matches as a prefix,
//     so results come while typing.
//   - search_cjk, trigram, over the documents holding Chinese, Japanese or
//     Korean characters, which are written without spaces (unicode61 would
//     read a whole sentence as one word). A query holding such characters
//     is a substring search there: each of its space-separated terms must
//     occur. Trigrams index terms of three characters or more; shorter ones
//     (a two-character Chinese word) are checked by scanning the documents
//     the other terms found, or, when there are none, the CJK documents.
//
// Queries are plain text, never FTS5 syntax: every term is quoted, so
// quotes, '*', '-', ':', AND, OR, NEAR and the like are searched for (or
// ignored, as punctuation is by the tokenizer), and never an error.

const (
	defaultSearchLimit = 50
	maxSearchLimit     = 500
	maxChatHits        = 1000
	snippetRunes       = 90 // CJK snippets: about the length of a word snippet
)

// Search finds messages and tool calls in every chat (not in the Trash) whose text matches
// query, best matches first (bm25), at most limit (<= 0: 50; at most 500).
// Every version of every message is searched; to show a hit that is not on
// its chat's active path, SwitchVersion(hit.MessageID) first. An empty or
// punctuation-only query finds nothing.
func (s *Store) Search(ctx context.Context, query string, limit int) ([]chat.SearchHit, error) {
	if limit <= 0 {
		limit = defaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)
	hits, err := s.search(ctx, query, "", nil, limit)
	if err == nil {
		err = s.hitAttachments(ctx, hits)
	}
	return hits, wrap("search", err)
}

// SearchChat is find-in-chat: the hits on a chat's active path (what is
// shown), in conversation order, a message before its tool calls. At most
// 1000.
func (s *Store) SearchChat(ctx context.Context, chatID, query string) ([]chat.SearchHit, error) {
	c, err := s.GetChat(ctx, chatID)
	if err != nil {
		return nil, err
	}
	ids, err := s.pathIDs(ctx, nil, chatID, c.LeafID)
	if err != nil {
		return nil, wrap("search chat", err)
	}
	pos := make(map[string]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	hits, err := s.search(ctx, query, chatID, pos, maxChatHits)
	return hits, wrap("search chat", err)
}

// hit is a candidate before it becomes a chat.SearchHit.
type hit struct {
	chat.SearchHit
	idx int // the call's index in its message; -1 for a message
}

// rankLimit: bm25 ranks every match, ~2 µs each. A query matching more
// documents than this (a very common word, a short prefix) lists the
// newest matches first instead: ~7 ms rather than ~210 ms for a word in
// 96,000 of 100,000 messages, and "best" means little when nearly
// everything matches.
var rankLimit = 20_000 // a variable for tests

// hitColumns and hitJoins read what a SearchHit shows about a document d.
const (
	hitColumns = `d.kind, d.ref, d.chat_id, d.message_id, m.role, m.created_at, c.title, coalesce(t.idx, -1),
		CASE WHEN d.kind = 'message' AND m.kind = 'tool_results' THEN coalesce((SELECT group_concat(name, ', ')
			FROM (SELECT DISTINCT name FROM tool_calls WHERE message_id = m.parent_id ORDER BY idx)), '') ELSE '' END`
	hitJoins = ` JOIN messages m ON m.id = d.message_id JOIN chats c ON c.id = d.chat_id AND c.deleted_at = 0
		LEFT JOIN tool_calls t ON d.kind = 'tool_call' AND t.id = d.ref `
	// The documents of the chats in the Trash, left out before a page is cut.
	inTrash = ` AND search_fts.rowid NOT IN (SELECT td.doc FROM chats tc JOIN search_docs td ON td.chat_id = tc.id WHERE tc.deleted_at > 0)`
	// Up to 16 tokens around the best match, marked with U+0002/U+0003.
	snippetFTS = `snippet(search_fts, -1, char(2), char(3), '…', 16)`
)

func (s *Store) search(ctx context.Context, query, chatID string, onPath map[string]int, limit int) ([]chat.SearchHit, error) {
	p, ok := planSearch(query)
	if !ok {
		return []chat.SearchHit{}, nil
	}
	// One read transaction: the candidates and their details agree.
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()

	table := "search_fts"
	if p.cjk {
		table = "search_cjk"
	}
	// Global searches rank; find-in-chat keeps conversation order.
	order := ""
	if chatID == "" && p.match != "" {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM "+table+" WHERE "+table+" MATCH ? LIMIT ?)",
			p.match, rankLimit+1).Scan(&n); err != nil {
			return nil, err
		}
		order = " ORDER BY " + table + ".rank"
		if n > rankLimit {
			order = " ORDER BY " + table + ".rowid DESC"
		}
	}
	var (
		q    string
		args []any
	)
	switch {
	case !p.cjk && chatID == "":
		// Snippets for the page only: rank and cut first.
		outer := " ORDER BY h.score, h.doc DESC"
		if strings.HasSuffix(order, "DESC") {
			outer = " ORDER BY h.doc DESC"
		}
		q = `WITH h AS (SELECT search_fts.rowid AS doc, search_fts.rank AS score, ` + snippetFTS + ` AS snip
				FROM search_fts WHERE search_fts MATCH ?1` + inTrash + order + ` LIMIT ?2)
			SELECT ` + hitColumns + `, h.snip, '', '' FROM h CROSS JOIN search_docs d ON d.doc = h.doc` + hitJoins + outer
		args = []any{p.match, limit}
	case !p.cjk:
		q = `SELECT ` + hitColumns + `, ` + snippetFTS + `, '', ''
			FROM search_fts CROSS JOIN search_docs d ON d.doc = search_fts.rowid` + hitJoins + `
			WHERE search_fts MATCH ?1 AND d.chat_id = ?2`
		args = []any{p.match, chatID}
	case p.match != "":
		q = `SELECT ` + hitColumns + `, '', search_cjk.body, search_cjk.aux
			FROM search_cjk CROSS JOIN search_docs d ON d.doc = search_cjk.rowid` + hitJoins + `
			WHERE search_cjk MATCH ?1`
		args = []any{p.match}
		if chatID != "" {
			q += ` AND d.chat_id = ?2`
			args = append(args, chatID)
		}
		q += order
	default:
		// Only short terms: scan the CJK documents (a partial index
		// holds them) for the first CJK term, exact characters; the other
		// terms are checked below.
		inChat := ""
		args = []any{p.scan}
		if chatID != "" {
			inChat = " AND chat_id = ?2"
			args = append(args, chatID)
		}
		q = `SELECT ` + hitColumns + `, '', x.body, x.aux FROM (
				SELECT 'message' AS kind, id AS ref, content AS body, reasoning AS aux FROM messages
				WHERE cjk = 1 AND status != 'streaming' AND (instr(content, ?1) > 0 OR instr(reasoning, ?1) > 0)` + inChat + `
				UNION ALL
				SELECT 'tool_call', id, name || char(10) || arguments || CASE WHEN edited != '' THEN char(10) || edited ELSE '' END,
					result FROM tool_calls
				WHERE cjk = 1 AND (instr(name || arguments || edited, ?1) > 0 OR instr(result, ?1) > 0)` + inChat + `
			) x JOIN search_docs d ON d.kind = x.kind AND d.ref = x.ref` + hitJoins + `
			ORDER BY d.doc DESC`
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []hit
	for rows.Next() {
		var h hit
		var ref, body, aux string
		var tools sql.NullString
		if err := rows.Scan(&h.Kind, &ref, &h.ChatID, &h.MessageID, &h.Role, &h.CreatedAt, &h.ChatTitle, &h.idx, &tools,
			&h.Snippet, &body, &aux); err != nil {
			return nil, err
		}
		if h.Kind == chat.HitToolCall {
			h.CallID = ref
		}
		if onPath != nil {
			if _, ok := onPath[h.MessageID]; !ok {
				continue // another version
			}
		}
		if p.cjk {
			var ok bool
			if h.Snippet, ok = substringSnippet(body, aux, p.terms); !ok {
				continue // a short term is missing
			}
		}
		if tools.Valid && tools.String != "" {
			h.Tools, h.Snippet = tools.String, readableResults(h.Snippet)
		}
		hits = append(hits, h)
		if onPath == nil && len(hits) >= limit {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if onPath != nil {
		sort.SliceStable(hits, func(i, j int) bool {
			a, b := hits[i], hits[j]
			if pa, pb := onPath[a.MessageID], onPath[b.MessageID]; pa != pb {
				return pa < pb
			}
			return a.idx < b.idx
		})
		if len(hits) > limit {
			hits = hits[:limit]
		}
	}
	out := make([]chat.SearchHit, len(hits))
	for i, h := range hits {
		out[i] = h.SearchHit
	}
	return out, nil
}

// searchPlan is a user's query turned into index lookups.
type searchPlan struct {
	cjk   bool
	match string   // the FTS5 query ("" on the CJK path when every term is short)
	terms []string // CJK path: every term, case-folded, checked and highlighted in Go
	scan  string   // CJK path without match: a CJK term to look for by scanning
}

// planSearch quotes each whitespace-separated term of a plain-text query.
// ok is false when nothing searchable is left.
func planSearch(query string) (p searchPlan, ok bool) {
	fields := strings.Fields(strings.NewReplacer(chat.MarkStart, " ", chat.MarkEnd, " ").Replace(query))
	for _, f := range fields {
		if strings.IndexFunc(f, isCJK) >= 0 {
			p.cjk = true
		}
	}
	if p.cjk {
		var phrases []string
		for _, f := range fields {
			p.terms = append(p.terms, fold(f))
			if utf8.RuneCountInString(f) >= 3 {
				phrases = append(phrases, quoteFTS(f))
			} else if p.scan == "" && strings.IndexFunc(f, isCJK) >= 0 {
				p.scan = f
			}
		}
		p.match = strings.Join(phrases, " ")
		return p, len(p.terms) > 0
	}
	var phrases []string
	for _, f := range fields {
		// unicode61 keeps letters, digits and private-use characters;
		// a term with none of them would be an empty phrase.
		if strings.IndexFunc(f, isTokenRune) < 0 {
			continue
		}
		phrases = append(phrases, quoteFTS(f))
	}
	if len(phrases) == 0 {
		return p, false
	}
	// Search as you type: the last word may be unfinished. Not after a
	// single letter (every word starting with it), nor after punctuation
	// ("c++" must not become "c*").
	last := fields[len(fields)-1]
	if r, _ := utf8.DecodeLastRuneInString(last); isTokenRune(r) && utf8.RuneCountInString(last) >= 2 &&
		phrases[len(phrases)-1] == quoteFTS(last) {
		phrases[len(phrases)-1] += "*"
	}
	p.match = strings.Join(phrases, " ")
	return p, true
}

// quoteFTS makes a term an FTS5 string: a phrase of whatever tokens the
// tokenizer finds in it, with no operators.
func quoteFTS(term string) string {
	return `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
}

func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// hasCJK reports whether any of the texts holds a CJK character: the
// messages.cjk and tool_calls.cjk flags that put a document in the trigram
// index. Computed here rather than in SQL (GLOB with a character class
// costs ~1 ms per KB of text in this SQLite, on every save).
func hasCJK(texts ...string) bool {
	for _, t := range texts {
		for i := 0; i < len(t); i++ {
			// Every CJK character is at least three bytes long, led
			// by 0xE1 or above.
			if t[i] >= 0xE1 && strings.IndexFunc(t[i:], isCJK) >= 0 {
				return true
			}
		}
	}
	return false
}

// isCJK reports the characters of the scripts written without spaces
// (Hangul Jamo, CJK radicals to unified ideographs with kana and Hangul
// compatibility Jamo, Hangul syllables, compatibility ideographs, half- and
// full-width forms, kana supplement, ideograph extensions B onwards). A
// query holding one goes to the trigram index, and every document holding
// one is in it (the migration's backfill uses the same ranges).
func isCJK(r rune) bool {
	switch {
	case r >= 0x1100 && r <= 0x11FF, r >= 0x2E80 && r <= 0x9FFF, r >= 0xA960 && r <= 0xA97F,
		r >= 0xAC00 && r <= 0xD7FF, r >= 0xF900 && r <= 0xFAFF, r >= 0xFF00 && r <= 0xFFEF,
		r >= 0x1B000 && r <= 0x1B16F, r >= 0x20000 && r <= 0x3FFFD:
		return true
	}
	return false
}

// fold lower-cases rune by rune: a text and its folded copy have the same
// number of runes, so rune indexes found in one hold in the other.
func fold(s string) string {
	return strings.Map(unicode.ToLower, s)
}

// substringSnippet checks that every term occurs in body or aux
// (case-insensitively) and cuts a snippet around the first match, marking
// every occurrence of a term in it. ok is false when a term is missing.
func substringSnippet(body, aux string, terms []string) (string, bool) {
	lb, la := []rune(fold(body)), []rune(fold(aux))
	for _, t := range terms {
		tr := []rune(t)
		if runeIndex(lb, tr, 0) < 0 && runeIndex(la, tr, 0) < 0 {
			return "", false
		}
	}
	text, folded := []rune(body), lb
	first := firstMatch(folded, terms)
	if first < 0 {
		text, folded = []rune(aux), la
		first = firstMatch(folded, terms)
	}
	start := max(0, first-snippetRunes/4)
	end := min(len(text), start+snippetRunes)
	start = max(0, min(start, end-snippetRunes))
	// Mark the occurrences inside the window, longest term first.
	marked := make([]bool, len(text))
	for _, t := range terms {
		tr := []rune(t)
		if len(tr) == 0 {
			continue
		}
		for i := runeIndex(folded, tr, start); i >= 0 && i < end; i = runeIndex(folded, tr, i+len(tr)) {
			for k := i; k < i+len(tr) && k < len(marked); k++ {
				marked[k] = true
			}
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	in := false
	for i := start; i < end; i++ {
		if marked[i] != in {
			if marked[i] {
				b.WriteString(chat.MarkStart)
			} else {
				b.WriteString(chat.MarkEnd)
			}
			in = marked[i]
		}
		r := text[i]
		if r == 2 || r == 3 {
			r = ' '
		}
		b.WriteRune(r)
	}
	if in {
		b.WriteString(chat.MarkEnd)
	}
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String(), true
}

func firstMatch(folded []rune, terms []string) int {
	first := -1
	for _, t := range terms {
		if i := runeIndex(folded, []rune(t), 0); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	return first
}

func runeIndex(s, sub []rune, from int) int {
	if len(sub) == 0 {
		return -1
	}
	for i := from; i+len(sub) <= len(s); i++ {
		if s[i] == sub[0] && equalRunes(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func equalRunes(a, b []rune) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// resultsMarkup is what the paradigms wrap results in: JSON keys and
// punctuation, XML-like tags, code fences and escapes.
var resultsMarkup = regexp.MustCompile("```\\w*|</?[A-Za-z_][\\w.:-]*>|\"(tool_call_result|toolCallId|name|status|result|content|text|type|isError)\"\\s*:|\\\\[nrt]|[{}\\[\\]\"]")

// readableResults is a results message's snippet as a person reads it: the
// tools' output without the protocol around it (the matched words keep
// their marks).
func readableResults(snip string) string {
	s := resultsMarkup.ReplaceAllString(snip, " ")
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, " ,", ",")), " ")
	return strings.Trim(s, " ,:")
}
