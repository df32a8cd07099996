package store

import (
	"context"
	"database/sql"

	"airlock/backend/redact"
)

// maskStoredErrors masks secrets in the error messages an older Airlock
// stored as the provider or network said them (a base URL with a password
// or ?api_key=, a 401 body that echoed the key). Errors are masked where
// they are made now (backend/llm); this cleans what was kept before, so it
// reaches neither the UI nor an export. Few rows have an error: cheap.
func maskStoredErrors(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, "SELECT id, error_message FROM messages WHERE error_message <> ''")
	if err != nil {
		return err
	}
	type fix struct{ id, text string }
	var fixes []fix
	for rows.Next() {
		var id, text string
		if err := rows.Scan(&id, &text); err != nil {
			rows.Close()
			return err
		}
		if clean := redact.Text(text); clean != text {
			fixes = append(fixes, fix{id, clean})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(fixes) == 0 {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, f := range fixes {
		if _, err := tx.ExecContext(ctx, "UPDATE messages SET error_message = ? WHERE id = ?", f.text, f.id); err != nil {
			return err
		}
	}
	return tx.Commit()
}
