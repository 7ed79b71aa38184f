package rare

import "testing"

func TestStart(t *testing.T) { Start() }
