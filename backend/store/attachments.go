package store

import (
	"context"
	"database/sql"
	"strings"

	"airlock/backend/chat"
)

// AttachFiles links files to a message, in order, storing each content once
// (by SHA-256: the same bytes attached twice are stored once).
func (s *Store) AttachFiles(ctx context.Context, messageID string, files []chat.AttachmentData) error {
	if len(files) == 0 {
		return nil
	}
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := s.queryRow(ctx, tx, "SELECT count(*) FROM message_attachments WHERE message_id = ?", messageID).Scan(&n); err != nil {
			return err
		}
		return s.insertAttachments(ctx, tx, messageID, n, files)
	})
	return wrap("attach files", err)
}

// insertAttachments links files to a message from position from on.
func (s *Store) insertAttachments(ctx context.Context, tx *sql.Tx, messageID string, from int, files []chat.AttachmentData) error {
	for i, f := range files {
		if _, err := s.exec(ctx, tx, "INSERT INTO blobs (sha256, size, data) VALUES (?, ?, ?) ON CONFLICT (sha256) DO NOTHING",
			f.SHA256, len(f.Data), f.Data); err != nil {
			return err
		}
		if _, err := s.exec(ctx, tx, `INSERT INTO message_attachments
			(message_id, position, name, kind, mime, size, sha256, width, height) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			messageID, from+i, f.Name, f.Kind, f.MIME, f.Size, f.SHA256, f.Width, f.Height); err != nil {
			return err
		}
	}
	return nil
}

// chatFiles reads the files of a chat's messages, with their bytes.
func chatFiles(ctx context.Context, tx *sql.Tx, chatID string) (map[string][]chat.AttachmentData, error) {
	rows, err := tx.QueryContext(ctx, "SELECT "+attachmentColumns+`, b.data FROM message_attachments a
		JOIN messages m ON m.id = a.message_id JOIN blobs b ON b.sha256 = a.sha256
		WHERE m.chat_id = ? ORDER BY a.message_id, a.position`, chatID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]chat.AttachmentData{}
	for rows.Next() {
		var id string
		var f chat.AttachmentData
		if err := rows.Scan(&id, &f.Name, &f.Kind, &f.MIME, &f.Size, &f.SHA256, &f.Width, &f.Height, &f.Data); err != nil {
			return nil, err
		}
		out[id] = append(out[id], f)
	}
	return out, rows.Err()
}

const attachmentColumns = "a.message_id, a.name, a.kind, a.mime, a.size, a.sha256, a.width, a.height"

func scanAttachment(r scanner) (string, chat.Attachment, error) {
	var id string
	var a chat.Attachment
	err := r.Scan(&id, &a.Name, &a.Kind, &a.MIME, &a.Size, &a.SHA256, &a.Width, &a.Height)
	return id, a, err
}

// withAttachments fills in the Attachments of messages of one chat.
func (s *Store) withAttachments(ctx context.Context, tx *sql.Tx, msgs []chat.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	rows, err := s.query(ctx, tx, "SELECT "+attachmentColumns+` FROM message_attachments a
		JOIN messages m ON m.id = a.message_id WHERE m.chat_id = ? ORDER BY a.message_id, a.position`, msgs[0].ChatID)
	if err != nil {
		return err
	}
	defer rows.Close()
	by := map[string][]chat.Attachment{}
	for rows.Next() {
		id, a, err := scanAttachment(rows)
		if err != nil {
			return err
		}
		by[id] = append(by[id], a)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range msgs {
		msgs[i].Attachments = by[msgs[i].ID]
	}
	return nil
}

// hitAttachments names the attached files of the messages search found.
func (s *Store) hitAttachments(ctx context.Context, hits []chat.SearchHit) error {
	for i := range hits {
		if hits[i].Kind != chat.HitMessage {
			continue
		}
		rows, err := s.query(ctx, nil, "SELECT name FROM message_attachments WHERE message_id = ? ORDER BY position", hits[i].MessageID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				rows.Close()
				return err
			}
			hits[i].Attachments = append(hits[i].Attachments, name)
		}
		rows.Close()
	}
	return nil
}

// Blob returns the bytes stored under a content address.
func (s *Store) Blob(ctx context.Context, sha string) ([]byte, error) {
	var data []byte
	err := s.queryRow(ctx, nil, "SELECT data FROM blobs WHERE sha256 = ?", strings.ToLower(sha)).Scan(&data)
	if isNoRows(err) {
		return nil, notFound("attachment", sha)
	}
	return data, wrap("read attachment", err)
}

// MessageAttachments returns a message's files with their bytes, in order.
func (s *Store) MessageAttachments(ctx context.Context, messageID string) ([]chat.AttachmentData, error) {
	rows, err := s.query(ctx, nil, "SELECT "+attachmentColumns+`, b.data FROM message_attachments a
		JOIN blobs b ON b.sha256 = a.sha256 WHERE a.message_id = ? ORDER BY a.position`, messageID)
	if err != nil {
		return nil, wrap("read attachments", err)
	}
	defer rows.Close()
	var out []chat.AttachmentData
	for rows.Next() {
		var id string
		var f chat.AttachmentData
		if err := rows.Scan(&id, &f.Name, &f.Kind, &f.MIME, &f.Size, &f.SHA256, &f.Width, &f.Height, &f.Data); err != nil {
			return nil, wrap("read attachments", err)
		}
		out = append(out, f)
	}
	return out, wrap("read attachments", rows.Err())
}

// dropUnusedBlobs removes the bytes no message uses any more.
func (s *Store) dropUnusedBlobs(ctx context.Context) error {
	_, err := s.exec(ctx, nil, `DELETE FROM blobs WHERE NOT EXISTS
		(SELECT 1 FROM message_attachments a WHERE a.sha256 = blobs.sha256)`)
	return err
}

// GetVision returns what is known of whether a model takes images (Sees ""
// when nothing is).
func (s *Store) GetVision(ctx context.Context, providerID, model string) (chat.Vision, error) {
	v := chat.Vision{ProviderID: providerID, Model: model}
	err := s.queryRow(ctx, nil, "SELECT sees, source, reason FROM model_vision WHERE provider_id = ? AND model = ?",
		providerID, model).Scan(&v.Sees, &v.Source, &v.Reason)
	if isNoRows(err) {
		return v, nil
	}
	return v, wrap("read model vision", err)
}

// SetVision records whether a model takes images. A learned answer never
// overrides the user's; sees "" forgets what was known.
func (s *Store) SetVision(ctx context.Context, v chat.Vision) error {
	if v.Sees == "" {
		_, err := s.exec(ctx, nil, "DELETE FROM model_vision WHERE provider_id = ? AND model = ?", v.ProviderID, v.Model)
		return wrap("set model vision", err)
	}
	if v.Sees != "yes" && v.Sees != "no" {
		return invalid("unknown vision answer %q (want yes, no or empty)", v.Sees)
	}
	if v.Source != "user" {
		v.Source = "learned"
	}
	_, err := s.exec(ctx, nil, `INSERT INTO model_vision (provider_id, model, sees, source, reason, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (provider_id, model) DO UPDATE SET
		sees = excluded.sees, source = excluded.source, reason = excluded.reason, updated_at = excluded.updated_at
		WHERE model_vision.source = 'learned' OR excluded.source = 'user'`,
		v.ProviderID, v.Model, v.Sees, v.Source, v.Reason, chat.Now())
	return wrap("set model vision", err)
}

// ToolImages says whether a chat sends its tools' images to the model (on
// unless turned off).
func (s *Store) ToolImages(ctx context.Context, chatID string) bool {
	var n int
	_ = s.queryRow(ctx, nil, "SELECT count(*) FROM chat_tool_images_off WHERE chat_id = ?", chatID).Scan(&n)
	return n == 0
}

// SetToolImages turns sending a chat's tool images to the model on or off.
func (s *Store) SetToolImages(ctx context.Context, chatID string, on bool) error {
	q := "INSERT INTO chat_tool_images_off (chat_id) VALUES (?) ON CONFLICT DO NOTHING"
	if on {
		q = "DELETE FROM chat_tool_images_off WHERE chat_id = ?"
	}
	_, err := s.exec(ctx, nil, q, chatID)
	return wrap("set tool images", err)
}
