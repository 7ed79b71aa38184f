// Package setup has a race that a run of its test almost never shows,
// after a first write of the racing line in setup code that runs before
// the goroutine exists: a directed run's hook holds that write in vain, and
// must then hold the goroutine's. The goroutine writes config and closes
// ready; the caller, 200ms later, looks at ready without waiting, and
// writes config. When ready is closed, as it nearly always is, the close
// orders the writes; when the caller looks first, nothing does.
package setup

import "time"

var config string

func configure(s string) {
	config = s // want "race"
}

// Start configures once alone, then in a goroutine and in the caller.
func Start() string {
	configure("default")
	ready := make(chan struct{})
	go func() {
		configure("goroutine")
		close(ready)
	}()
	time.Sleep(200 * time.Millisecond)
	select {
	case <-ready:
	default:
	}
	config = "caller" // want "race"
	return config
}
