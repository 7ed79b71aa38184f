// Type assertions pass only the objects of the asserted type (or of types
// implementing the asserted interface); the results of a call flow to their
// own Extracts; a value receiver called through an interface gets only the
// values boxed as its type.
package main

type A struct{ p *int }
type B struct{ p *int }

func (a *A) String() string { return "A" }

type Stringer interface{ String() string }

// L is a named slice type with a value method: an interface holding an L
// points to its box and to its backing array.
type L []*int

func (l L) First() *int { return l[0] }

type Firster interface{ First() *int }

// C converts to D (same underlying type); D's method is the one called.
type C struct{ n int }
type D C

func (c *C) Name() string { return "C" }
func (d *D) Name() string { return "D" }

type Namer interface{ Name() string }

func two() (*A, *B) { return &A{}, &B{} } // @two

var sinkA *A
var sinkB *B
var sinkS Stringer
var sinkP *int
var sinkN Namer

func main() {
	var i any = &A{} // @newA
	if len(sinkA.String()) > 0 {
		i = &B{} // @newB
	}
	sinkA, _ = i.(*A)       // @assertA
	sinkB, _ = i.(*B)       // @assertB
	sinkS, _ = i.(Stringer) // @assertS
	switch v := i.(type) {
	case *B: // @switch
		sinkB = v
	}
	a, b := two() // @call
	sinkA, sinkB = a, b
	x := new(int) // @x
	var f Firster = L{x}
	sinkP = f.First()        // @first
	var n Namer = (*D)(&C{}) // @conv
	sinkN = n
	println(n.Name()) // @name
}
