package workspace

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// dirFile is an open folder of the union: a fixed listing.
type dirFile struct {
	name    string
	info    fs.FileInfo
	entries []fs.FileInfo
	off     int
}

func (d *dirFile) Close() error               { return nil }
func (d *dirFile) Name() string               { return d.name }
func (d *dirFile) Stat() (os.FileInfo, error) { return d.info, nil }
func (d *dirFile) Sync() error                { return nil }
func (d *dirFile) Read([]byte) (int, error)   { return 0, pathErr("read", d.name, syscall.EISDIR) }
func (d *dirFile) ReadAt([]byte, int64) (int, error) {
	return 0, pathErr("read", d.name, syscall.EISDIR)
}
func (d *dirFile) Seek(int64, int) (int64, error) { return 0, nil }
func (d *dirFile) Write([]byte) (int, error)      { return 0, pathErr("write", d.name, syscall.EISDIR) }
func (d *dirFile) WriteAt([]byte, int64) (int, error) {
	return 0, pathErr("write", d.name, syscall.EISDIR)
}
func (d *dirFile) WriteString(string) (int, error) {
	return 0, pathErr("write", d.name, syscall.EISDIR)
}
func (d *dirFile) Truncate(int64) error { return pathErr("truncate", d.name, syscall.EISDIR) }
func (d *dirFile) Readdir(count int) ([]os.FileInfo, error) {
	rest := d.entries[d.off:]
	if count <= 0 {
		d.off = len(d.entries)
		return append([]os.FileInfo(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if count > len(rest) {
		count = len(rest)
	}
	d.off += count
	return append([]os.FileInfo(nil), rest[:count]...), nil
}

func (d *dirFile) Readdirnames(n int) ([]string, error) {
	infos, err := d.Readdir(n)
	names := make([]string, len(infos))
	for i, fi := range infos {
		names[i] = fi.Name()
	}
	return names, err
}
