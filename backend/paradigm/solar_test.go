package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestSolarCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatSolar) }
