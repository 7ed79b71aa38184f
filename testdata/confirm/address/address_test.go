package address

import "testing"

func TestStart(t *testing.T) { Start() }
