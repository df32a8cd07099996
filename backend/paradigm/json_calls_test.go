package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestJsonCallsCorpus(t *testing.T) {
	checkFamilies(t, paradigm.FormatJSON, paradigm.FormatLlama, paradigm.FormatOpenAI, paradigm.FormatTGI)
}
