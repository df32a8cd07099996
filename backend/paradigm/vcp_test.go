package paradigm_test

import (
	"testing"

	"airlock/backend/paradigm"
)

func TestVcpCorpus(t *testing.T) { checkFamilies(t, paradigm.FormatVCP) }
