package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestQwenAgentCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatQwenAgent) }
