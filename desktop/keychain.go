package desktop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/zalando/go-keyring"

	"airlock/backend/store"
)

// KeychainService is the service name Airlock's API keys are filed under
// in the system keychain (Secret Service, macOS Keychain, Windows
// Credential Manager).
const KeychainService = "airlock"

// keychainTimeout bounds one keychain call: a Secret Service that waits on
// an unlock prompt nobody answers must not hang the app.
const keychainTimeout = 5 * time.Second

// SystemKeychain is store.Keyring over go-keyring.
type SystemKeychain struct{}

func (SystemKeychain) Get(name string) (string, error) {
	v, err := timed(func() (string, error) { return keyring.Get(KeychainService, name) })
	if errors.Is(err, keyring.ErrNotFound) {
		return "", store.ErrNoKey
	}
	return v, err
}

func (SystemKeychain) Set(name, secret string) error {
	_, err := timed(func() (string, error) { return "", keyring.Set(KeychainService, name, secret) })
	return err
}

func (SystemKeychain) Delete(name string) error {
	_, err := timed(func() (string, error) { return "", keyring.Delete(KeychainService, name) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

func timed(f func() (string, error)) (string, error) {
	type res struct {
		v   string
		err error
	}
	ch := make(chan res, 1)
	go func() { v, err := f(); ch <- res{v, err} }()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(keychainTimeout):
		return "", errors.New("the keychain did not answer")
	}
}

// OpenKeychain returns the system keychain when one answers, else nil and
// why. AIRLOCK_KEYCHAIN=off keeps keys in the database (tests, or people
// who want no keychain entries).
func OpenKeychain(k store.Keyring) (store.Keyring, error) {
	if v := strings.TrimSpace(os.Getenv("AIRLOCK_KEYCHAIN")); strings.EqualFold(v, "off") {
		return nil, errors.New("AIRLOCK_KEYCHAIN=off")
	}
	// A probe that finds nothing proves the keychain answers.
	if _, err := k.Get("probe"); err != nil && !errors.Is(err, store.ErrNoKey) {
		return nil, err
	}
	return k, nil
}

// UseKeychain moves API keys into the system keychain when there is one,
// and returns what to log and, when there is none, the sentence Settings
// shows.
func UseKeychain(st *store.Store, k store.Keyring) (moved int, why error) {
	kc, why := OpenKeychain(k)
	if kc == nil {
		st.NoKeyring()
		return 0, why
	}
	moved, err := st.UseKeyring(context.Background(), kc)
	if err != nil {
		return moved, fmt.Errorf("moving API keys to the keychain: %w", err)
	}
	return moved, nil
}
