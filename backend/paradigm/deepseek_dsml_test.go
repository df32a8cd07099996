package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestDeepseekDsmlCorpus(t *testing.T) {
	checkFamilies(t, paradigm.FormatDSML, paradigm.FormatGigaChat)
}
