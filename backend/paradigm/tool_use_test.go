package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestToolUseCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatToolUse) }
