package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestClineXmlCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatCline) }
