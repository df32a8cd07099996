package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestPhi4Corpus(t *testing.T) { checkFamilies(t, paradigm.FormatPhi4) }
