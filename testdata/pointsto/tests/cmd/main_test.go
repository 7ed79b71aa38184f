package main

import "testing"

func TestBump(t *testing.T) { bump() }
