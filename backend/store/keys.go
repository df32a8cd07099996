package store

import (
	"context"
	"database/sql"
	"errors"

	"airlock/backend/chat"
)

// Keyring keeps API keys outside the database: the system keychain
// (backend/keychain) in the app, a map in tests. Names are
// "provider/<id>".
type Keyring interface {
	Get(name string) (string, error) // ErrNoKey when there is none
	Set(name, secret string) error
	Delete(name string) error
}

// ErrNoKey is what a Keyring's Get returns for a name it does not hold.
var ErrNoKey = errors.New("no such key in the keychain")

// Where API keys are kept (Store.KeyStorage).
const (
	KeysInKeychain = "keychain" // the system keychain
	KeysInDatabase = "database" // no keychain: the database file, readable by its owner only
)

// inKeyring is what providers.api_key holds when the key is in the keyring.
// No API key looks like it.
const inKeyring = "@keychain"

func keyName(providerID string) string { return "provider/" + providerID }

// KeyStorage says where SaveProvider puts API keys now.
func (s *Store) KeyStorage() string {
	if s.keyring() != nil {
		return KeysInKeychain
	}
	return KeysInDatabase
}

func (s *Store) keyring() Keyring {
	s.keysMu.RLock()
	pending := s.keysPending
	s.keysMu.RUnlock()
	if pending != nil {
		<-pending
	}
	s.keysMu.RLock()
	defer s.keysMu.RUnlock()
	return s.keys
}

// DeferKeyring makes every use of API keys wait until UseKeyring or
// NoKeyring: the app asks the system keychain (which may be slow to start,
// or prompt to unlock) while its window opens, not before.
func (s *Store) DeferKeyring() {
	s.keysMu.Lock()
	if s.keysPending == nil {
		s.keysPending = make(chan struct{})
	}
	s.keysMu.Unlock()
}

// NoKeyring settles a deferred choice: keys stay in the database.
func (s *Store) NoKeyring() { s.keyringDecided() }

func (s *Store) keyringDecided() {
	s.keysMu.Lock()
	if s.keysPending != nil {
		close(s.keysPending)
		s.keysPending = nil
	}
	s.keysMu.Unlock()
}

// UseKeyring keeps API keys in k from now on and moves the keys the
// database holds into it, erasing them from the file (its free space and
// WAL included). It returns how many keys moved. A key k refuses stays in
// the database.
func (s *Store) UseKeyring(ctx context.Context, k Keyring) (int, error) {
	s.keysMu.Lock()
	s.keys = k
	s.keysMu.Unlock()
	defer s.keyringDecided() // once the keys have moved

	rows, err := s.db.QueryContext(ctx, "SELECT id, api_key FROM providers WHERE api_key NOT IN ('', ?)", inKeyring)
	if err != nil {
		return 0, wrap("move keys to the keychain", err)
	}
	type key struct{ id, secret string }
	var keys []key
	for rows.Next() {
		var x key
		if err := rows.Scan(&x.id, &x.secret); err != nil {
			rows.Close()
			return 0, wrap("move keys to the keychain", err)
		}
		keys = append(keys, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(keys) == 0 {
		return 0, wrap("move keys to the keychain", err)
	}
	var moved []string
	for _, x := range keys {
		if k.Set(keyName(x.id), x.secret) == nil {
			moved = append(moved, x.id)
		}
	}
	if len(moved) == 0 {
		return 0, nil
	}
	return len(moved), wrap("move keys to the keychain", s.eraseKeys(ctx, moved))
}

// eraseKeys marks the providers' keys as kept in the keyring, with
// secure_delete on so SQLite zeroes the old text in the page, then
// checkpoints and truncates the WAL, which held the pages before.
func (s *Store) eraseKeys(ctx context.Context, ids []string) error {
	return s.withSecureDelete(ctx, func(conn *sql.Conn) error {
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, "UPDATE providers SET api_key = ? WHERE id = ?", inKeyring, id); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
}

// withKey fills in a provider's key from the keyring when that is where it
// is. A keyring that cannot be reached gives an empty key (the request
// then fails with the provider's 401), never an error that would hide the
// provider.
func (s *Store) withKey(p chat.Provider) chat.Provider {
	if p.APIKey != inKeyring {
		return p
	}
	p.APIKey = ""
	if k := s.keyring(); k != nil {
		if v, err := k.Get(keyName(p.ID)); err == nil {
			p.APIKey = v
		}
	}
	return p
}

// storedKey is what SaveProvider writes in providers.api_key for p's key,
// putting the key in the keyring when there is one. before is the column's
// value until now.
func (s *Store) storedKey(p chat.Provider, before string) string {
	k := s.keyring()
	switch {
	case p.APIKey == "" && before == inKeyring:
		// Cleared in the form, or the form showed no key because the
		// keychain could not be read: keep the key when it cannot be
		// deleted now.
		if k == nil || k.Delete(keyName(p.ID)) != nil && !s.keyGone(k, p.ID) {
			return inKeyring
		}
		return ""
	case p.APIKey == "":
		return ""
	case k != nil && k.Set(keyName(p.ID), p.APIKey) == nil:
		return inKeyring
	}
	return p.APIKey // no keychain, or it refused: the database, owner-only
}

func (s *Store) keyGone(k Keyring, id string) bool {
	_, err := k.Get(keyName(id))
	return errors.Is(err, ErrNoKey)
}

// forgetKey deletes a provider's key from the keyring (the provider is gone).
func (s *Store) forgetKey(before, id string) {
	if k := s.keyring(); k != nil && before == inKeyring {
		_ = k.Delete(keyName(id))
	}
}

// apiKeyColumn reads a provider's stored api_key ("" when there is no such
// provider: the caller reports that).
func apiKeyColumn(ctx context.Context, q querier, id string) string {
	var v string
	if err := q.QueryRowContext(ctx, "SELECT api_key FROM providers WHERE id = ?", id).Scan(&v); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return ""
	}
	return v
}
