package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestHermesCorpus(t *testing.T) {
	checkFamilies(t, paradigm.FormatHermes, paradigm.FormatXML, paradigm.FormatApertus)
}
