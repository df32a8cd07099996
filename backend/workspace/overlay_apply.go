package workspace

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/afero"

	"airlock/backend/chat"
	"airlock/backend/uitext"
)

// Op is what a change does to the real folder.
type Op string

const (
	OpAdded    Op = "added"
	OpModified Op = "modified"
	OpDeleted  Op = "deleted"
)

// Change is one pending change of an overlay, as the "Changes" view shows
// it. Diff is a unified diff (a/… → b/…, /dev/null for added or deleted
// files); it is empty for folders, binary files (Binary) and files too large
// to diff (Note says so).
type Change struct {
	Path   string `json:"path"`
	Op     Op     `json:"op"`
	IsDir  bool   `json:"isDir,omitempty"`
	Binary bool   `json:"binary,omitempty"`
	Diff   string `json:"diff,omitempty"`
	Note   string `json:"note,omitempty"`
	// NoteText is Note coded for the UI's language.
	NoteText *uitext.Text `json:"noteText,omitempty"`
	// blocked: the disk entry (or a folder above it) can no longer be
	// reached inside the folder, a link planted since that leads out:
	// Apply skips this change and says so (Note says why).
	blocked bool
}

// blockedNote says why a change cannot be applied: its path on disk now
// leads outside the folder.
var blockedNote = uitext.Define("change_blocked", "on disk this path now goes through a symbolic link that leads outside the folder (made since the model worked on it); Apply skips it: look at it, then discard the change or remove the link and apply again").With()

// noted is c with its note.
func noted(c Change, t uitext.Text) Change {
	c.Note, c.NoteText = t.English, &t
	return c
}

// isGone reports a disk lookup that found nothing there.
func isGone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

func (o *overlayFs) changes(withDiffs bool) ([]Change, error) {
	var out []Change
	// What the layer holds, walked with a handle on the matching disk
	// folder: one stat per entry, not one walk of the whole path per entry
	// (quadratic at depth).
	var walk func(rel string, disk baseDir, blocked bool) error
	walk = func(rel string, disk baseDir, blocked bool) error {
		ents, err := readDirInfos(o.layer, FSName(rel))
		if err != nil {
			return err
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, fi := range ents {
			name := fi.Name()
			child := name
			if rel != "." {
				child = rel + "/" + name
			}
			var bfi fs.FileInfo
			berr := fs.ErrNotExist
			if !blocked {
				bfi, berr = disk.stat(o, name, child)
			}
			if berr != nil && !isGone(berr) {
				// A link out planted here: this path and all beneath it
				// are changes Apply cannot make.
				if !fi.IsDir() {
					out = append(out, noted(Change{Path: child, Op: OpModified, blocked: true}, blockedNote))
					continue
				}
				if err := walk(child, baseDir{known: true}, true); err != nil {
					return err
				}
				continue
			}
			onDisk := berr == nil
			if blocked && !fi.IsDir() {
				out = append(out, noted(Change{Path: child, Op: OpModified, blocked: true}, blockedNote))
				continue
			}
			if fi.IsDir() {
				if !onDisk || !bfi.IsDir() {
					// Report a new folder by itself only when nothing inside it says so.
					if sub, err := readDirInfos(o.layer, FSName(child)); err == nil && len(sub) == 0 {
						out = append(out, Change{Path: child, Op: OpAdded, IsDir: true})
					}
				}
				sub := disk.down(o, name, child, onDisk && bfi.IsDir())
				err := walk(child, sub, blocked)
				sub.close()
				if err != nil {
					return err
				}
				continue
			}
			c, err := o.fileChange(child, bfi, onDisk, withDiffs)
			if err != nil {
				return err
			}
			if c != nil {
				out = append(out, *c)
			}
		}
		return nil
	}
	if err := walk(".", baseDir{r: o.root}, false); err != nil {
		return nil, err
	}
	// What the model deleted.
	for rel := range o.hidden {
		bfi, err := o.base.Stat(FSName(rel))
		if isGone(err) {
			continue // gone from the disk as well: nothing to apply
		}
		if err != nil { // a link out planted there since: never dropped silently
			out = append(out, noted(Change{Path: rel, Op: OpDeleted, blocked: true}, blockedNote))
			continue
		}
		if lfi, ok := o.layerHas(rel); ok && lfi.IsDir() == bfi.IsDir() {
			continue // replaced: reported above as modified (or unchanged)
		}
		c := Change{Path: rel, Op: OpDeleted, IsDir: bfi.IsDir()}
		if !c.IsDir && !bfi.Mode().IsRegular() {
			c = noted(c, notRegularNote)
		} else if withDiffs && !c.IsDir {
			old, err := afero.ReadFile(o.base, FSName(rel))
			if err != nil {
				return nil, err
			}
			fillDiff(&c, old, nil)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Op == OpDeleted // a deletion before an addition at the same path
	})
	return out, nil
}

// notRegularNote stands for the content of a pipe or device on disk,
// which is never opened (a FIFO would block, /dev/zero never ends).
var notRegularNote = uitext.Define("change_not_regular", "not a regular file on disk (a pipe, socket or device): not read").With()

// fileChange is what a layer file changes on disk (nil: nothing).
func (o *overlayFs) fileChange(rel string, bfi fs.FileInfo, onDisk, withDiffs bool) (*Change, error) {
	data, err := afero.ReadFile(o.layer, FSName(rel))
	if err != nil {
		return nil, err
	}
	if !onDisk || bfi.IsDir() {
		c := Change{Path: rel, Op: OpAdded}
		if withDiffs {
			fillDiff(&c, nil, data)
		}
		return &c, nil
	}
	if !bfi.Mode().IsRegular() {
		c := noted(Change{Path: rel, Op: OpModified}, notRegularNote)
		return &c, nil
	}
	old, err := afero.ReadFile(o.base, FSName(rel))
	if err != nil {
		return nil, err
	}
	if bytes.Equal(old, data) {
		return nil, nil
	}
	c := Change{Path: rel, Op: OpModified}
	if withDiffs {
		fillDiff(&c, old, data)
	}
	return &c, nil
}

func fillDiff(c *Change, old, new []byte) {
	if IsBinary(old) || IsBinary(new) {
		c.Binary = true
		*c = noted(*c, binaryNote(old, new))
		return
	}
	if len(old)+len(new) > MaxDiffInputBytes {
		*c = noted(*c, txtNoDiffTooLarge.With("from", HumanSizeText(int64(len(old))), "to", HumanSizeText(int64(len(new)))))
		return
	}
	from, to := "a/"+c.Path, "b/"+c.Path
	if old == nil {
		from = "/dev/null"
	}
	if new == nil {
		to = "/dev/null"
	}
	c.Diff = UnifiedDiff(from, to, string(old), string(new))
}

// The sentences of an Apply that was refused.
var (
	txtApplySeveral        = uitext.Define("apply_several", "{{count}} changes were not applied: {{parts}}")
	txtApplySkippedLink    = uitext.Define("apply_skipped_link", "{{path}} was skipped: on disk it now leads outside the folder through a symbolic link (look at it, then discard the change or remove the link and apply again)")
	txtApplyFolderNotEmpty = uitext.Define("apply_folder_not_empty", "folder {{path}} holds files on disk that the model did not delete (perhaps created meanwhile); review and apply again")
	txtConflictNoRecord    = uitext.Define("conflict_no_record", "{{path}}: Airlock has no record of what the model saw of it; review and apply again")
	txtConflictDeleted     = uitext.Define("conflict_deleted", "{{path}} was deleted on disk since the model read it; review and apply again")
	txtConflictCreated     = uitext.Define("conflict_created", "{{path}} was created on disk since the model started working on it; review and apply again")
	txtConflictKind        = uitext.Define("conflict_kind", "{{path}} changed on disk (between file and folder) since the model read it; review and apply again")
	txtConflictChanged     = uitext.Define("conflict_changed", "{{path}} changed on disk since the model read it; review and apply again")
)

var (
	txtNoDiffTooLarge = uitext.Define("change_too_large_to_diff", "too large to show a diff ({{from}} → {{to}})")
	txtBinaryFile     = uitext.Define("change_binary", "binary file, {{size}}")
	txtBinaryChanged  = uitext.Define("change_binary_changed", "binary file, {{from}} → {{to}}")
)

func binaryNote(old, new []byte) uitext.Text {
	switch {
	case old == nil:
		return txtBinaryFile.With("size", HumanSizeText(int64(len(new))))
	case new == nil:
		return txtBinaryFile.With("size", HumanSizeText(int64(len(old))))
	}
	return txtBinaryChanged.With("from", HumanSizeText(int64(len(old))), "to", HumanSizeText(int64(len(new))))
}

// selectChanges keeps the changes at or beneath any of the clean paths.
func selectChanges(all []Change, paths []string) ([]Change, error) {
	if len(paths) == 0 {
		return all, nil
	}
	var sel []Change
	for _, p := range paths {
		c, err := CleanPath(p)
		if err != nil {
			return nil, err
		}
		n := 0
		for _, ch := range all {
			if Within(ch.Path, c) {
				n++
			}
		}
		if n == 0 {
			return nil, errf(CodeNotFound, chat.ErrNotFound, "there is no pending change at %s", display(c))
		}
	}
	for _, ch := range all {
		for _, p := range paths {
			c, _ := CleanPath(p)
			if Within(ch.Path, c) {
				sel = append(sel, ch)
				break
			}
		}
	}
	return sel, nil
}

// apply writes the selected changes to the disk. Each file is checked
// against what the overlay saw of it first, and written atomically (a
// temporary file renamed over it): a conflict or a failure leaves that file
// as it was on disk and its change pending.
func (o *overlayFs) apply(paths []string) error {
	all, err := o.changes(false)
	if err != nil {
		return err
	}
	sel, err := selectChanges(all, paths)
	if err != nil {
		return err
	}
	// Order: deleted files, deleted folders (deepest first), new folders
	// (shallowest first), then written files.
	rank := func(c Change) int {
		switch {
		case c.Op == OpDeleted && !c.IsDir:
			return 0
		case c.Op == OpDeleted:
			return 1
		case c.IsDir:
			return 2
		}
		return 3
	}
	sort.SliceStable(sel, func(i, j int) bool {
		ri, rj := rank(sel[i]), rank(sel[j])
		if ri != rj {
			return ri < rj
		}
		if ri == 1 {
			return strings.Count(sel[i].Path, "/") > strings.Count(sel[j].Path, "/")
		}
		return sel[i].Path < sel[j].Path
	})
	var errs []error
	for _, c := range sel {
		if err := o.applyOne(c); err != nil {
			errs = append(errs, err)
		}
	}
	if rest, err := o.changes(false); err == nil && len(rest) == 0 {
		o.reset()
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	parts := make([]uitext.Text, len(errs))
	code := CodeConflict
	for i, e := range errs {
		parts[i] = uitext.Of(e)
		if Code(e) != CodeConflict {
			code = Code(e)
		}
	}
	return coded(code, errors.Join(errs...), txtApplySeveral, "count", len(errs), "parts", parts)
}

func (o *overlayFs) applyOne(c Change) error {
	if c.blocked {
		return coded(CodeConflict, chat.ErrBusy, txtApplySkippedLink, "path", c.Path)
	}
	if err := o.checkConflict(c); err != nil {
		return err
	}
	rel := c.Path
	switch {
	case c.Op == OpDeleted && c.IsDir:
		if err := o.disk.Remove(FSName(rel)); err != nil {
			if errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
				return coded(CodeConflict, err, txtApplyFolderNotEmpty, "path", rel)
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return FSError(rel, err)
			}
		}
		delete(o.hidden, rel)
		delete(o.seen, rel)
	case c.Op == OpDeleted:
		if err := o.disk.Remove(FSName(rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return FSError(rel, err)
		}
		delete(o.hidden, rel)
		delete(o.seen, rel)
	case c.IsDir:
		fi, _ := o.layerHas(rel)
		if err := o.disk.MkdirAll(FSName(rel), fi.Mode().Perm()); err != nil {
			return FSError(rel, err)
		}
		delete(o.seen, rel)
	default:
		fi, _ := o.layerHas(rel)
		data, err := afero.ReadFile(o.layer, FSName(rel))
		if err != nil {
			return FSError(rel, err)
		}
		if err := writeAtomic(o.disk, rel, data, fi.Mode().Perm()); err != nil {
			return FSError(rel, err)
		}
		if err := o.layer.Remove(FSName(rel)); err != nil {
			return FSError(rel, err)
		}
		delete(o.hidden, rel)
		delete(o.seen, rel)
	}
	return nil
}

// checkConflict compares the disk now with what the overlay saw of it.
// On a conflict it refreshes the record: the user has now been told, and
// once they have reviewed the change (whose diff is against the disk as it
// is now), applying again goes through.
func (o *overlayFs) checkConflict(c Change) error {
	rel := c.Path
	want, ok := o.seen[rel]
	if !ok {
		want = diskState{exists: c.Op != OpAdded, isDir: c.IsDir}
		if c.Op == OpAdded {
			want = diskState{}
		}
	}
	cur, err := o.diskStat(rel, want.hashed)
	if err != nil {
		return FSError(rel, err)
	}
	if c.IsDir && c.Op == OpAdded && cur.exists && cur.isDir {
		return nil // someone made the same folder: fine
	}
	var msg uitext.Template
	switch {
	case !ok && c.Op != OpAdded:
		msg = txtConflictNoRecord
	case want.exists && !cur.exists:
		msg = txtConflictDeleted
	case !want.exists && cur.exists:
		msg = txtConflictCreated
	case !want.exists:
		return nil
	case want.isDir != cur.isDir:
		msg = txtConflictKind
	case want.isDir:
		return nil
	case want.hashed && want.hash != cur.hash:
		msg = txtConflictChanged
	case !want.hashed && (want.size != cur.size || !want.modTime.Equal(cur.modTime)):
		msg = txtConflictChanged
	default:
		return nil
	}
	if fresh, err := o.diskStat(rel, true); err == nil {
		o.seen[rel] = fresh
	}
	return coded(CodeConflict, chat.ErrBusy, msg, "path", rel)
}

// writeAtomic writes data to rel on fsys through a temporary file in the
// same folder renamed over the target. A symbolic link (inside the folder)
// is written through instead of being replaced by a file.
func writeAtomic(fsys afero.Fs, rel string, data []byte, perm os.FileMode) error {
	if err := fsys.MkdirAll(FSName(ParentOf(rel)), 0o755); err != nil {
		return err
	}
	if l, ok := fsys.(afero.Lstater); ok {
		if fi, _, err := l.LstatIfPossible(FSName(rel)); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return afero.WriteFile(fsys, FSName(rel), data, perm)
		}
	}
	tmp := TempName(ParentOf(rel))
	f, err := fsys.OpenFile(FSName(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = fsys.Chmod(FSName(tmp), perm)
	}
	if werr == nil {
		werr = fsys.Rename(FSName(tmp), FSName(rel))
	}
	if werr != nil {
		_ = fsys.Remove(FSName(tmp))
	}
	return werr
}

func (o *overlayFs) reset() {
	o.layer = afero.NewMemMapFs()
	o.hidden = map[string]bool{}
	o.seen = map[string]diskState{}
}

// discard drops the pending changes at or beneath the given paths (all
// when none). Un-deleting something also un-deletes its parent folders.
func (o *overlayFs) discard(paths []string) error {
	if len(paths) == 0 {
		o.reset()
		return nil
	}
	for _, p := range paths {
		c, err := CleanPath(p)
		if err != nil {
			return err
		}
		if c == "." {
			o.reset()
			return nil
		}
		matched := false
		if _, ok := o.layerHas(c); ok {
			if err := o.layer.RemoveAll(FSName(c)); err != nil {
				return FSError(c, err)
			}
			matched = true
		}
		for k := range o.hidden {
			if Within(k, c) {
				delete(o.hidden, k)
				matched = true
			}
		}
		for k := range o.seen {
			if Within(k, c) {
				delete(o.seen, k)
			}
		}
		// Bring back the parents, and drop a file the model put where one
		// of them was.
		for a := ParentOf(c); a != "."; a = ParentOf(a) {
			if o.hidden[a] {
				delete(o.hidden, a)
				matched = true
				if fi, ok := o.layerHas(a); ok && !fi.IsDir() {
					_ = o.layer.Remove(FSName(a))
					delete(o.seen, a)
				}
			}
		}
		if !matched {
			return errf(CodeNotFound, chat.ErrNotFound, "there is no pending change at %s", display(c))
		}
		o.pruneLayerDirs(ParentOf(c))
	}
	return nil
}

// pruneLayerDirs removes folders left empty in the layer that do not exist
// on disk: discarding the only file of a new folder discards the folder.
func (o *overlayFs) pruneLayerDirs(rel string) {
	for ; rel != "."; rel = ParentOf(rel) {
		fi, ok := o.layerHas(rel)
		if !ok || !fi.IsDir() {
			return
		}
		if ents, err := readDirInfos(o.layer, FSName(rel)); err != nil || len(ents) > 0 {
			return
		}
		if bfi, err := o.base.Stat(FSName(rel)); err == nil && bfi.IsDir() {
			return
		}
		_ = o.layer.Remove(FSName(rel))
	}
}
