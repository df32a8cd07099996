package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestMistralCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatMistral) }
