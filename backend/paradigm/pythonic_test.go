package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestPythonicCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatPythonic) }
