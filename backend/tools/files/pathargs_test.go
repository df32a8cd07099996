package files

import (
	"strings"
	"testing"
)

// Rules on folders look at the arguments the file tools mark as paths.
func TestPathArgs(t *testing.T) {
	want := map[string]string{
		"list_directory": "path", "read_file": "path", "write_file": "path", "edit_file": "path",
		"search_files": "path", "find_files": "path", "make_directory": "path", "move_path": "source,destination",
		"delete_path": "path",
	}
	for _, tool := range Tools() {
		if got := strings.Join(tool.PathArgs, ","); got != want[tool.Name] {
			t.Errorf("%s: PathArgs %q, want %q", tool.Name, got, want[tool.Name])
		}
	}
}
