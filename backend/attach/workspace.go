package attach

import (
	"io"
	"path"
	"syscall"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	"airlock/backend/workspace"
)

// FromWorkspace reads a file of a chat's workspace to attach it to a
// message (the Files panel's "Attach to message"). The path is the
// workspace's own (cleaned; the workspace's filesystem keeps it inside),
// the size is checked before a byte is read and the read is capped too (a
// file growing meanwhile), and the bytes are checked like any attached
// file, so a refusal comes now, with its reason, not at send.
func FromWorkspace(fsys afero.Fs, p string) (chat.NewAttachment, error) {
	clean, err := workspace.CleanPath(p)
	if err != nil {
		return chat.NewAttachment{}, err
	}
	f, err := fsys.Open(workspace.FSName(clean))
	if err != nil {
		return chat.NewAttachment{}, workspace.FSError(clean, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return chat.NewAttachment{}, workspace.FSError(clean, err)
	}
	if fi.IsDir() {
		return chat.NewAttachment{}, workspace.FSError(clean, syscall.EISDIR)
	}
	name := path.Base(clean)
	if fi.Size() > MaxFileBytes {
		return chat.NewAttachment{}, refuse("%s is %s; one attached file may be at most %s.", SafeName(name), Size(int(min(fi.Size(), 1<<40))), Size(MaxFileBytes))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return chat.NewAttachment{}, workspace.FSError(clean, err)
	}
	if _, err := Check(name, data); err != nil {
		return chat.NewAttachment{}, err
	}
	return chat.NewAttachment{Name: name, Data: data}, nil
}
