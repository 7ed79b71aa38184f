package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/types"
	"strconv"
	"strings"

	"github.com/chordgo/chordgo/pointsto"
	"golang.org/x/tools/go/ssa"
)

// ids names races and locations by what they are in the program, never by
// where they are in a file, so that an id survives edits that move lines
// (for suppressions and baselines): a function by its full name, an access
// by its function, its shape (the kind of instruction and what it
// addresses) and its ordinal among same-shaped accesses of that function,
// an allocation by its function, kind, type and ordinal among the same
// allocations of that function.
type ids struct {
	f          *pointsto.Facts
	accessesOf map[uint32][]uint32        // by function (M): its accesses (E), in instruction order
	sitesOf    map[*ssa.Function][]uint32 // by function: its root sites (H), in instruction order
	ordinals   map[uint32]int             // by access: its ordinal among same-shaped accesses of its function
}

func newIDs(f *pointsto.Facts) *ids {
	return &ids{f: f, ordinals: map[uint32]int{}}
}

// hash shortens a key to an id: 64 bits keep collisions unlikely among
// the races of one program.
func hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// location returns the key of abstract location h: the sub-site path from
// its root, and the root by name (global) or by allocation ordinal.
func (x *ids) location(h uint32) string {
	f := x.f
	var path []string
	for ; f.Site(h).Kind == pointsto.SiteSub; h = f.Site(h).Parent {
		path = append(path, f.FieldDesc(f.Site(h).Field))
	}
	root := f.Site(h)
	var key string
	switch v := root.Value.(type) {
	case *ssa.Global:
		key = "global " + v.String()
	case *ssa.Function:
		key = root.Kind.String() + " " + v.String()
	default:
		key = root.Kind.String() + " " + typeString(root.Type)
		if fn := x.siteFunc(h); fn != nil {
			key += " in " + fn.String() + " #" + strconv.Itoa(x.siteOrdinal(h))
		}
	}
	for k := len(path) - 1; k >= 0; k-- {
		key += " " + path[k]
	}
	return key
}

func typeString(t types.Type) string {
	if t == nil {
		return "?"
	}
	return types.TypeString(t, nil)
}

// siteFunc returns the function whose instruction creates root site h:
// the allocating function, or for a synthetic site made at a call (the
// result of a function not analyzed) the caller; nil for globals and
// function objects.
func (x *ids) siteFunc(h uint32) *ssa.Function {
	site := x.f.Site(h)
	if site.Func != pointsto.NoID {
		return x.f.Func(site.Func)
	}
	if instr, ok := site.Value.(ssa.Instruction); ok {
		return instr.Parent()
	}
	return nil
}

// siteOrdinal returns the ordinal of root site h among the root sites of
// its function with its kind and type.
func (x *ids) siteOrdinal(h uint32) int {
	f := x.f
	if x.sitesOf == nil {
		x.sitesOf = map[*ssa.Function][]uint32{}
		for s := range uint32(f.Size(pointsto.DomH)) {
			if f.Site(s).Kind == pointsto.SiteSub {
				continue
			}
			if fn := x.siteFunc(s); fn != nil {
				x.sitesOf[fn] = append(x.sitesOf[fn], s)
			}
		}
	}
	site := f.Site(h)
	n := 0
	for _, s := range x.sitesOf[x.siteFunc(h)] {
		if s == h {
			break
		}
		if other := f.Site(s); other.Kind == site.Kind && typeString(other.Type) == typeString(site.Type) {
			n++
		}
	}
	return n
}

// access returns the key of access e with operation op.
func (x *ids) access(e uint32, op string) string {
	f := x.f
	m := f.AccessFunc(e)
	return strings.Join([]string{f.Func(m).String(), op, accessShape(f.Access(e)), strconv.Itoa(x.accessOrdinal(e))}, "\x00")
}

func (x *ids) accessOrdinal(e uint32) int {
	if n, ok := x.ordinals[e]; ok {
		return n
	}
	f := x.f
	if x.accessesOf == nil {
		x.accessesOf = map[uint32][]uint32{}
		for a := range uint32(f.Size(pointsto.DomE)) {
			x.accessesOf[f.AccessFunc(a)] = append(x.accessesOf[f.AccessFunc(a)], a)
		}
	}
	count := map[string]int{}
	for _, a := range x.accessesOf[f.AccessFunc(e)] {
		shape := accessShape(f.Access(a))
		x.ordinals[a] = count[shape]
		count[shape]++
	}
	return x.ordinals[e]
}

// accessShape describes what an access instruction does without positions
// or register names: its kind and what it addresses.
func accessShape(instr ssa.Instruction) string {
	switch in := instr.(type) {
	case *ssa.Store:
		return "store " + addrShape(in.Addr)
	case *ssa.UnOp:
		return in.Op.String() + " " + addrShape(in.X)
	case *ssa.MapUpdate:
		return "mapupdate " + typeString(in.Map.Type())
	case *ssa.Lookup:
		return "lookup " + typeString(in.X.Type())
	case ssa.CallInstruction:
		c := in.Common()
		if callee := c.StaticCallee(); callee != nil {
			return "call " + callee.String()
		}
		if b, ok := c.Value.(*ssa.Builtin); ok {
			return "call " + b.Name()
		}
		return "call " + typeString(c.Signature())
	}
	return fmt.Sprintf("%T", instr)
}

// addrShape describes an address by how it is formed.
func addrShape(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return "&(" + typeString(v.X.Type()) + ")." + strconv.Itoa(v.Field)
	case *ssa.IndexAddr:
		return "&(" + typeString(v.X.Type()) + ")[i]"
	case *ssa.Global:
		return "&" + v.String()
	case *ssa.FreeVar:
		return "free " + v.Name()
	case *ssa.Alloc:
		return "&" + v.Comment
	}
	return typeString(v.Type())
}
