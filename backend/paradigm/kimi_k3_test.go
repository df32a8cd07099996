package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestKimiK3Corpus(t *testing.T) { checkFamilies(t, paradigm.FormatKimiK3) }
