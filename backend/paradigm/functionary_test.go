package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestFunctionaryCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatFunctionary) }
