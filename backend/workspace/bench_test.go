package workspace_test

import (
	"testing"

	. "airlock/backend/workspace"
)

func BenchmarkCleanPath(b *testing.B) {
	for b.Loop() {
		CleanPath(`./src\components/../lib/util.go`)
	}
}
