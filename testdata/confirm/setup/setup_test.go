package setup

import "testing"

func TestStart(t *testing.T) { Start() }
