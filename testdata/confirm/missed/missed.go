// Package missed has a race chordgo does not report: the goroutine writes
// count through reflect, which the analysis does not model (README,
// Soundness), and the caller writes it directly.
package missed

import "reflect"

var count int

// Bump writes count through reflect in a goroutine and directly in the
// caller, unordered.
func Bump() int {
	done := make(chan bool)
	go func() {
		reflect.ValueOf(&count).Elem().SetInt(1) // want "race"
		done <- true
	}()
	count = 2 // want "race"
	<-done
	return count
}
