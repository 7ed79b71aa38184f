package main

import "testing"

func TestA(t *testing.T) { counter++ }

func TestB(t *testing.T) { counter++ }
