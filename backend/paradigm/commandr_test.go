package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestCommandrCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatCommandR) }
