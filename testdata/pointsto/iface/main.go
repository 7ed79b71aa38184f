// Interface method calls dispatch on a pointer, a boxed struct and a named func type.
package main

type Shape interface{ Area() int }

type Sq struct{ s *int }

func (q *Sq) Area() int { return *q.s }

type Circle struct{ r *int }

func (c Circle) Area() int { return *c.r }

type F func() int

func (f F) Area() int { return f() }

func main() {
	var shapes []Shape
	shapes = append(shapes, &Sq{s: new(int)}, Circle{r: new(int)}, F(func() int { return 3 }))
	for _, s := range shapes {
		println(s.Area()) // @invoke
	}
}
