package races

// SetCallPathMemo sets the bound of the answers the proof per call path
// keeps, and returns what restores it.
func SetCallPathMemo(n int) (restore func()) {
	old := callPathMemo
	callPathMemo = n
	return func() { callPathMemo = old }
}

// SetLockableFirst sets whether the proof per call path asks lock queries
// only for the sides lockable lets through, and returns what restores it.
func SetLockableFirst(on bool) (restore func()) {
	old := lockableFirst
	lockableFirst = on
	return func() { lockableFirst = old }
}
