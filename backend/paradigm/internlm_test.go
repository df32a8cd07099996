package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestInternlmCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatInternLM) }
