package order

import "testing"

func TestStart(t *testing.T) { Start() }
