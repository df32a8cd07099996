package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestMinimaxM3Corpus(t *testing.T) { checkFamilies(t, paradigm.FormatMiniMaxM3) }
