// Generic types and functions are analyzed as their instances.
package main

type Box[T any] struct{ v T }

func (b *Box[T]) Get() T { return b.v }

func Map[T, U any](xs []T, f func(T) U) []U {
	var out []U
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func main() {
	b := &Box[*int]{v: new(int)} // @newBox
	p := b.Get()                 // @get
	c := &Box[string]{v: "s"}
	println(p, c.Get())
	ys := Map([]*int{p}, func(q *int) *int { return q })
	println(ys[0])
}
