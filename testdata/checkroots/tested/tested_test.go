package tested

import "testing"

func TestSet(t *testing.T) { Set() }
