// Map update, lookup, range, delete and len; a map keyed by pointers, whose
// keys and values are different contents.
package main

var sink *int

var sinkKey, sinkValue *int

func main() {
	m := make(map[string]*int) // @make
	x := new(int)              // @newx
	m["a"] = x                 // @update
	y := m["a"]                // @lookup
	for _, v := range m {      // @range
		sink = v
	}
	delete(m, "a")     // @delete
	println(len(m), y) // @len

	byPtr := make(map[*int]*int) // @makeptr
	k := new(int)                // @newk
	byPtr[k] = x
	z := byPtr[k] // @lookupptr
	println(z)
	for key, value := range byPtr {
		sinkKey, sinkValue = key, value
	}
}
