package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestDeepseekCorpus(t *testing.T) {
	checkFamilies(t, paradigm.FormatDeepSeek, paradigm.FormatStep3)
}
