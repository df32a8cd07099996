package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestGlmCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatGLM) }
