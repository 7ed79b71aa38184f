// Two test packages (a and b, two test binaries: two processes) use one
// library type; each test makes its own Box and runs a function on it in a
// goroutine the library starts. Only b's test races, within its own
// process; a's accesses never meet b's.
package lib

type Box struct{ V int }

func New() *Box { return &Box{} }

// Run runs f on b in a new goroutine.
func (b *Box) Run(f func(*Box)) { go f(b) }
