// Map update, lookup, range, delete and len.
package main

var sink *int

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
}
