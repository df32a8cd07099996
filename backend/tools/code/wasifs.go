package code

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"
)

// wasiFS shows the workspace to a WASI guest (Python) as its root folder,
// through the run's rules (runFS): paths stay inside, read-only runs cannot
// write, the files and bytes bounds hold. Links are not offered.
type wasiFS struct {
	experimentalsys.UnimplementedFS
	r *runFS
}

var _ experimentalsys.FS = wasiFS{}

// errno maps a workspace error to what the guest sees.
func errno(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	var be *boundErr
	switch {
	case errors.Is(err, errReadOnly):
		return experimentalsys.EROFS
	case errors.Is(err, errOutside):
		return experimentalsys.EACCES
	case errors.As(err, &be):
		return experimentalsys.EPERM
	case errors.Is(err, fs.ErrNotExist):
		return experimentalsys.ENOENT
	case errors.Is(err, fs.ErrExist):
		return experimentalsys.EEXIST
	case errors.Is(err, fs.ErrPermission):
		return experimentalsys.EACCES
	}
	if e := experimentalsys.UnwrapOSError(err); e != 0 {
		return e
	}
	return experimentalsys.EIO
}

func osFlags(f experimentalsys.Oflag) int {
	var flag int
	switch {
	case f&experimentalsys.O_RDWR != 0:
		flag = os.O_RDWR
	case f&experimentalsys.O_WRONLY != 0:
		flag = os.O_WRONLY
	default:
		flag = os.O_RDONLY
	}
	for _, m := range []struct {
		w experimentalsys.Oflag
		o int
	}{{experimentalsys.O_APPEND, os.O_APPEND}, {experimentalsys.O_CREAT, os.O_CREATE},
		{experimentalsys.O_EXCL, os.O_EXCL}, {experimentalsys.O_TRUNC, os.O_TRUNC}} {
		if f&m.w != 0 {
			flag |= m.o
		}
	}
	return flag
}

func (w wasiFS) OpenFile(path string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	of := osFlags(flag)
	if flag&experimentalsys.O_DIRECTORY != 0 || of&writeFlags == 0 {
		// Opening to read: a folder is read as one.
		fi, err := w.r.stat(path)
		if err != nil {
			return nil, errno(err)
		}
		if flag&experimentalsys.O_DIRECTORY != 0 && !fi.IsDir() {
			return nil, experimentalsys.ENOTDIR
		}
	}
	f, _, err := w.r.open(path, of, perm)
	if err != nil {
		return nil, errno(err)
	}
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, errno(err)
	}
	if fi.IsDir() && of&writeFlags != 0 {
		_ = f.Close()
		return nil, experimentalsys.EISDIR
	}
	// wazero's own adapter of an io/fs file does the reading, seeking and
	// listing (and reopens a folder listed again); writes are ours.
	inner, e := (&sysfs.AdaptFS{FS: &handOver{r: w.r, first: f}}).OpenFile(path, experimentalsys.O_RDONLY, 0)
	if e != 0 {
		_ = f.Close()
		return nil, e
	}
	return &wasiFile{File: inner, f: f, append: of&os.O_APPEND != 0, writable: of&(os.O_WRONLY|os.O_RDWR) != 0}, 0
}

// handOver is an io/fs view of the workspace that first hands over a file
// already open, then opens by name (to read a folder again).
type handOver struct {
	r     *runFS
	first afero.File
}

func (h *handOver) Open(name string) (fs.File, error) {
	if f := h.first; f != nil {
		h.first = nil
		return f, nil
	}
	f, _, err := h.r.open(name, os.O_RDONLY, 0)
	return f, err
}

func (w wasiFS) Stat(path string) (sys.Stat_t, experimentalsys.Errno) {
	fi, err := w.r.stat(path)
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return sys.NewStat_t(fi), 0
}

func (w wasiFS) Lstat(path string) (sys.Stat_t, experimentalsys.Errno) {
	fi, err := w.r.lstat(path)
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return sys.NewStat_t(fi), 0
}

func (w wasiFS) Mkdir(path string, _ fs.FileMode) experimentalsys.Errno {
	if _, err := w.r.stat(path); err == nil {
		return experimentalsys.EEXIST
	}
	return errno(w.r.mkdir(path, false))
}

func (w wasiFS) Rmdir(path string) experimentalsys.Errno {
	fi, err := w.r.stat(path)
	if err != nil {
		return errno(err)
	}
	if !fi.IsDir() {
		return experimentalsys.ENOTDIR
	}
	if err := w.r.remove(path); err != nil {
		if _, serr := w.r.stat(path); serr == nil && !errors.Is(err, errReadOnly) {
			return experimentalsys.ENOTEMPTY
		}
		return errno(err)
	}
	return 0
}

func (w wasiFS) Unlink(path string) experimentalsys.Errno {
	fi, err := w.r.lstat(path)
	if err != nil {
		return errno(err)
	}
	if fi.IsDir() {
		return experimentalsys.EISDIR
	}
	return errno(w.r.remove(path))
}

func (w wasiFS) Rename(from, to string) experimentalsys.Errno { return errno(w.r.rename(from, to)) }

// Chmod and Utimens change nothing a workspace keeps: accepted, ignored
// (read-only runs refuse them like any change).
func (w wasiFS) Chmod(path string, _ fs.FileMode) experimentalsys.Errno { return w.noop(path) }
func (w wasiFS) Utimens(path string, _, _ int64) experimentalsys.Errno  { return w.noop(path) }

func (w wasiFS) noop(path string) experimentalsys.Errno {
	if _, err := w.r.stat(path); err != nil {
		return errno(err)
	}
	if w.r.readOnly {
		return experimentalsys.EROFS
	}
	return 0
}

func (wasiFS) Link(string, string) experimentalsys.Errno    { return experimentalsys.EPERM }
func (wasiFS) Symlink(string, string) experimentalsys.Errno { return experimentalsys.EPERM }
func (wasiFS) Readlink(string) (string, experimentalsys.Errno) {
	return "", experimentalsys.EINVAL
}

// wasiFile is an open workspace file or folder: reads go to wazero's
// adapter, writes through the run's quota.
type wasiFile struct {
	experimentalsys.File
	f        afero.File
	append   bool
	writable bool
}

func (f *wasiFile) IsAppend() bool { return f.append }
func (f *wasiFile) SetAppend(on bool) experimentalsys.Errno {
	f.append = on
	return 0
}

func (f *wasiFile) Write(b []byte) (int, experimentalsys.Errno) {
	if !f.writable {
		return 0, experimentalsys.EBADF
	}
	if f.append {
		if _, err := f.f.Seek(0, io.SeekEnd); err != nil {
			return 0, errno(err)
		}
	}
	n, err := f.f.Write(b)
	return n, errno(err)
}

func (f *wasiFile) Pwrite(b []byte, off int64) (int, experimentalsys.Errno) {
	if !f.writable {
		return 0, experimentalsys.EBADF
	}
	n, err := f.f.WriteAt(b, off)
	return n, errno(err)
}

func (f *wasiFile) Truncate(size int64) experimentalsys.Errno {
	if !f.writable {
		return experimentalsys.EBADF
	}
	return errno(f.f.Truncate(size))
}

func (f *wasiFile) Sync() experimentalsys.Errno     { return 0 }
func (f *wasiFile) Datasync() experimentalsys.Errno { return 0 }
func (f *wasiFile) Utimens(int64, int64) experimentalsys.Errno {
	return 0
}
