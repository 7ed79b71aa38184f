package racefree

import "testing"

func TestHandoff(t *testing.T) { Handoff() }
