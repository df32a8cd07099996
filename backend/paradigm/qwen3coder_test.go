package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestQwen3coderCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatQwenCoder) }
