package workspace_test

import (
	"airlock/backend/tools/files"
	"airlock/backend/workspace/workspacetest"
)

// The filesystems are tested as the model uses them: through the file tools.
var runner = workspacetest.NewRunner(files.Tools())

var (
	call       = runner.Call
	mustCall   = runner.MustCall
	get        = workspacetest.Get
	writeDisk  = workspacetest.WriteDisk
	readDisk   = workspacetest.ReadDisk
	snapshotOS = workspacetest.SnapshotOS
	contains   = workspacetest.Contains
	lacks      = workspacetest.Lacks
	wantCode   = workspacetest.WantCode
)
