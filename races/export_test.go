package races

// SetCallPathMemo sets the bound of the answers the proof per call path
// keeps, and returns what restores it.
func SetCallPathMemo(n int) (restore func()) {
	old := callPathMemo
	callPathMemo = n
	return func() { callPathMemo = old }
}
