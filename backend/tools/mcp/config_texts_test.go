package mcp

import (
	"testing"

	"airlock/backend/uitext"
)

// A refused server configuration is coded whole, its part inside it, so the
// Settings form shows it in the UI's language.
func TestConfigRefusalsAreCoded(t *testing.T) {
	for _, c := range []struct {
		cfg        ServerConfig
		code, part string
	}{
		{ServerConfig{Name: "fs"}, "mcp_cfg_field", "mcp_cfg_no_command"},
		{ServerConfig{Name: "web", Transport: TransportHTTP, URL: "ftp://x"}, "mcp_cfg_field", "mcp_cfg_bad_url"},
		{ServerConfig{Name: "a__b", Command: "x"}, "mcp_name_bad", "mcp_name_double_underscore"},
		{ServerConfig{Command: "x"}, "mcp_name_missing", ""},
	} {
		err := c.cfg.Validate()
		tx, ok := uitext.Whole(err)
		if !ok || tx.Code != c.code || tx.English != err.Error() {
			t.Fatalf("%+v: %v → %+v", c.cfg, err, tx)
		}
		if c.part == "" {
			continue
		}
		inner, _ := tx.Params["problem"].(uitext.Text)
		if why, ok := tx.Params["why"].(uitext.Text); ok {
			inner = why
		}
		if inner.Code != c.part {
			t.Errorf("%v: part %+v, want %s", err, inner, c.part)
		}
	}
	if tx, ok := uitext.Whole(ValidateAll([]ServerConfig{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}})); !ok || tx.Code != "mcp_cfg_twice" {
		t.Fatalf("%+v", tx)
	}
}
