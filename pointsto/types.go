package pointsto

import (
	"go/types"
)

// typeClass caches per-type predicates. Keys are compared by pointer
// identity, which is enough for a cache.
type typeClass struct {
	carries map[types.Type]bool
}

func newTypeClass() *typeClass {
	return &typeClass{carries: make(map[types.Type]bool)}
}

// carriesPointers reports whether a value of type t is or contains a pointer,
// interface, slice, map, chan, func or unsafe.Pointer. Strings and structs or
// arrays of numbers do not count. Tuples count if an element does.
func (c *typeClass) carriesPointers(t types.Type) bool {
	if b, ok := c.carries[t]; ok {
		return b
	}
	b := c.compute(t)
	c.carries[t] = b
	return b
}

func (c *typeClass) compute(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Pointer, *types.Interface, *types.Slice, *types.Map, *types.Chan, *types.Signature:
		return true
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if c.carriesPointers(u.Field(i).Type()) {
				return true
			}
		}
		return false
	case *types.Array:
		return u.Len() > 0 && c.carriesPointers(u.Elem())
	case *types.Tuple:
		for i := 0; i < u.Len(); i++ {
			if c.carriesPointers(u.At(i).Type()) {
				return true
			}
		}
		return false
	case *types.TypeParam:
		return true // conservative (generic bodies are not analyzed anyway)
	}
	return false // opaque SSA types (iterators, defer stacks), invalid types
}

// isAggregate reports whether values of t are structs or arrays, which a
// single load or store copies as a whole (a "deep" access).
func isAggregate(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// isStringType reports whether t's underlying type is a string.
func isStringType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// pointerElem returns the element type of a pointer type, or nil.
func pointerElem(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return nil
}

// pointeeShape describes the object a pointer-like value of type t refers to:
// the object's type and whether it is an array of that type (a slice's
// backing array). ok is false when the object's type is unknown
// (unsafe.Pointer, interfaces, funcs).
func pointeeShape(t types.Type) (obj types.Type, array bool, ok bool) {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return u.Elem(), false, true
	case *types.Slice:
		return u.Elem(), true, true
	case *types.Map, *types.Chan:
		return t, false, true
	}
	return nil, false, false
}
