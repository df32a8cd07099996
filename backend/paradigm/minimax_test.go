package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestMinimaxCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatInvoke) }
