package export

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"airlock/backend/attach"
	"airlock/backend/chat"
)

// A Markdown export written to a file keeps its attachments in a folder
// beside it, "<name>_files", linked relatively (images shown inline): the
// .md and its folder travel together. Names are made safe for every
// file system (no separators, reserved characters or names, no leading
// dot, at most maxFileName bytes) and made unique (case-insensitively:
// "a.png", "a (2).png"); the same bytes attached twice are written once.
// Files are written through an os.Root on the folder, so nothing (a name,
// a link planted in the folder) can write outside it.

// maxFileName bounds a written file's name, in bytes (file systems allow
// 255).
const maxFileName = 120

// FilesDir is the folder beside a Markdown file that holds its files.
func FilesDir(mdPath string) string {
	return strings.TrimSuffix(mdPath, filepath.Ext(mdPath)) + "_files"
}

// mdLinks is where each attachment of a Markdown export is written: the
// folder's name (relative to the .md) and a file name per content.
type mdLinks struct {
	dir    string
	byHash map[string]string
	files  []mdFile // in the order first met
}

type mdFile struct {
	name string
	data []byte
}

// planFiles names the attachments of a bundle, in the order they appear.
func planFiles(b Bundle, dir string) *mdLinks {
	l := &mdLinks{dir: dir, byHash: map[string]string{}}
	taken := map[string]bool{}
	for _, c := range b.Chats {
		for _, m := range c.ActivePath() {
			for _, a := range m.Attachments {
				key := a.SHA256
				if key == "" {
					key = attach.Sum(a.Data)
				}
				if _, ok := l.byHash[key]; ok {
					continue
				}
				name := uniqueName(diskName(a.Name), taken)
				taken[strings.ToLower(name)] = true
				l.byHash[key] = name
				l.files = append(l.files, mdFile{name: name, data: a.Data})
			}
		}
	}
	return l
}

// link is the relative link to an attachment's file.
func (l *mdLinks) link(a Attachment) string {
	key := a.SHA256
	if key == "" {
		key = attach.Sum(a.Data)
	}
	return url.PathEscape(filepath.Base(l.dir)) + "/" + url.PathEscape(l.byHash[key])
}

// diskName makes a name safe as a file name everywhere: path separators,
// characters Windows refuses, control and format characters become "_";
// no leading dot (hidden, or "..") and no trailing dot or space; Windows'
// device names get a "_" prefix; long names are cut, keeping the
// extension.
func diskName(name string) string {
	name = strings.Map(func(r rune) rune {
		switch {
		case strings.ContainsRune(`/\:*?"<>|`, r), unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == utf8.RuneError:
			return '_'
		}
		return r
	}, strings.ToValidUTF8(name, "_"))
	name = strings.TrimRight(strings.TrimLeft(strings.TrimSpace(name), "."), ". ")
	if name == "" {
		name = "attachment"
	}
	base := strings.ToUpper(strings.TrimSuffix(name, filepath.Ext(name)))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		name = "_" + name
	}
	return cutName(name, maxFileName)
}

// cutName cuts a name to n bytes at a rune boundary, keeping a short
// extension.
func cutName(name string, n int) string {
	if len(name) <= n {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 {
		ext = ""
	}
	stem := strings.TrimSuffix(name, ext)
	for len(stem)+len(ext) > n {
		_, size := utf8.DecodeLastRuneInString(stem)
		stem = stem[:len(stem)-size]
	}
	return stem + ext
}

// uniqueName adds " (2)", " (3)"… before the extension until the name is
// not taken (compared case-insensitively, as macOS and Windows do).
func uniqueName(name string, taken map[string]bool) string {
	if !taken[strings.ToLower(name)] {
		return name
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 2; ; i++ {
		suffix := fmt.Sprintf(" (%d)", i)
		try := cutName(stem, maxFileName-len(suffix)-len(ext)) + suffix + ext
		if !taken[strings.ToLower(try)] {
			return try
		}
	}
}

// WriteMarkdownFile writes the bundle as Markdown to mdPath and its
// attachments into the folder beside it (FilesDir), linked relatively. The
// folder is made only when there are files. It returns how many files were
// written. The .md is written last, through a temporary file, so a failed
// export leaves no .md pointing at missing files.
func WriteMarkdownFile(mdPath string, b Bundle, opts ...Option) (int, error) {
	dir := FilesDir(mdPath)
	links := planFiles(b, dir)
	if len(links.files) > 0 {
		if err := writeFiles(dir, links.files); err != nil {
			return 0, chat.Errorf("export_failed", err, "Could not write the attached files into %s: %v", dir, err)
		}
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, b, append(opts, func(o *options) { o.links = links })...); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(mdPath), "."+filepath.Base(mdPath)+".*.tmp")
	if err != nil {
		return 0, chat.Errorf("export_failed", err, "Could not write %s: %v", mdPath, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return 0, chat.Errorf("export_failed", err, "Could not write %s: %v", mdPath, err)
	}
	if err := tmp.Close(); err != nil {
		return 0, chat.Errorf("export_failed", err, "Could not write %s: %v", mdPath, err)
	}
	if err := os.Rename(tmp.Name(), mdPath); err != nil {
		return 0, chat.Errorf("export_failed", err, "Could not write %s: %v", mdPath, err)
	}
	return len(links.files), nil
}

// writeFiles writes the files into dir (made if missing) through an
// os.Root: a name cannot leave it, nor can a link found inside it.
func writeFiles(dir string, files []mdFile) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, f := range files {
		if f.name != filepath.Base(f.name) || f.name == "." || f.name == ".." {
			return fmt.Errorf("refused file name %q", f.name)
		}
		if err := root.WriteFile(f.name, f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
