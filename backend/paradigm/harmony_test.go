package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestHarmonyCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatHarmony) }
