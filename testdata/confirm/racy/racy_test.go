package racy

import "testing"

func TestHit(t *testing.T) { Hit() }

func TestRename(t *testing.T) { Rename() }
