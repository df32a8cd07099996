package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestGraniteCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatGranite) }
