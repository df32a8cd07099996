package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestLmstudioCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatLMStudio) }
