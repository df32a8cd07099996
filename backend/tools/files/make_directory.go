package files

import (
	"context"
	"fmt"

	"github.com/spf13/afero"

	"airlock/backend/tools"
	"airlock/backend/workspace"
)

type makeDirectoryArgs struct {
	Path string `json:"path" airlock:"path" jsonschema:"Folder to create, relative to the workspace root. Example: \"src/utils\"."`
}

const makeDirectoryDescription = "Create a folder (and any missing parent folders) in the workspace. Path is relative to the workspace " +
	"root, e.g. \"docs\" or \"src/internal/store\". It is fine if the folder already exists. You do not need " +
	"this before write_file, which creates missing folders itself."

func makeDirectory() tools.Tool {
	return fileTool("make_directory", makeDirectoryDescription, runMakeDirectory, previewMakeDirectory)
}

func planMkdir(fsys afero.Fs, a makeDirectoryArgs) (string, bool, error) {
	p, err := workspace.CleanPath(a.Path)
	if err != nil {
		return "", false, err
	}
	if p == "." {
		return p, true, nil
	}
	fi, err := fsys.Stat(workspace.FSName(p))
	switch {
	case err == nil && fi.IsDir():
		return p, true, nil
	case err == nil:
		return "", false, coded(workspace.CodeExists, txtMkdirIsFile, "path", p)
	case !isMissing(err):
		return "", false, workspace.FSError(p, err)
	}
	if err := checkParentWritable(fsys, p); err != nil {
		return "", false, err
	}
	return p, false, nil
}

func previewMakeDirectory(fsys afero.Fs, a makeDirectoryArgs) (Preview, error) {
	p, exists, err := planMkdir(fsys, a)
	if err != nil {
		return Preview{}, err
	}
	if exists {
		pv := Preview{Path: p}
		pv.say(txtFolderExists, "path", dirDisplay(p))
		return pv, nil
	}
	pv := Preview{Path: p}
	pv.say(txtCreateFolder, "path", dirDisplay(p))
	return pv, nil
}

func runMakeDirectory(_ context.Context, fsys afero.Fs, a makeDirectoryArgs) (string, error) {
	p, exists, err := planMkdir(fsys, a)
	if err != nil {
		return "", err
	}
	if exists {
		return fmt.Sprintf("%s already exists.", dirDisplay(p)), nil
	}
	if err := fsys.MkdirAll(workspace.FSName(p), 0o755); err != nil {
		return "", workspace.FSError(p, err)
	}
	return fmt.Sprintf("Created folder %s.", dirDisplay(p)), nil
}
