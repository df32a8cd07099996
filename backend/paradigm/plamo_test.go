package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestPlamoCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatPlamo) }
