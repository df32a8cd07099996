package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestGemmaCorpus(t *testing.T) {
	checkFamilies(t, paradigm.FormatGemma4, paradigm.FormatFunctionGemma)
}
