package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestCwmCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatCWM) }
