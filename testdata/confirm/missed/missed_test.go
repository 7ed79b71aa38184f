package missed

import "testing"

func TestBump(t *testing.T) { Bump() }
