package workspace

import "github.com/spf13/afero"

// Symbolic links through the jail: reading a link's target (for the
// checkpoints, which keep links as links) and making one (for Undo, which
// puts back a link a change removed).

var (
	_ afero.LinkReader = (*jailFs)(nil)
	_ afero.Linker     = (*rootFs)(nil)
)

// ReadlinkIfPossible returns the target of a link, as written.
func (j *jailFs) ReadlinkIfPossible(name string) (string, error) {
	n, err := jailName(name)
	if err != nil {
		return "", err
	}
	if l, ok := j.inner.(afero.LinkReader); ok {
		return l.ReadlinkIfPossible(n)
	}
	return "", pathErr("readlink", name, afero.ErrNoReadlink)
}

// SymlinkIfPossible makes newname a link to oldname. os.Root does not check
// the target; following the link later still cannot lead out of the folder.
func (r *rootFs) SymlinkIfPossible(oldname, newname string) error {
	return r.root.Symlink(oldname, r.rel(newname))
}
