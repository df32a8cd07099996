package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestKimiCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatKimi) }
