package pointsto

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Operation kinds of lockOp (column z).
const (
	LockLock     = 0 // (*sync.Mutex).Lock, (*sync.RWMutex).Lock
	LockUnlock   = 1 // (*sync.Mutex).Unlock, (*sync.RWMutex).Unlock
	LockRLock    = 2 // (*sync.RWMutex).RLock
	LockRUnlock  = 3 // (*sync.RWMutex).RUnlock
	LockTryLock  = 4 // (*sync.Mutex).TryLock, (*sync.RWMutex).TryLock
	LockTryRLock = 5 // (*sync.RWMutex).TryRLock
)

// Operation kinds of chanOp (column z).
const (
	ChanSend  = 0 // ch <- v, and send cases of select
	ChanRecv  = 1 // <-ch, range over ch, and receive cases of select
	ChanClose = 2 // close(ch)
)

// Operation kinds of syncCall (column z); ptr is the receiver.
const (
	SyncWaitGroupAdd  = 0 // (*sync.WaitGroup).Add
	SyncWaitGroupDone = 1 // (*sync.WaitGroup).Done
	SyncWaitGroupWait = 2 // (*sync.WaitGroup).Wait
	SyncWaitGroupGo   = 3 // (*sync.WaitGroup).Go
	SyncOnceDo        = 4 // (*sync.Once).Do
	SyncCondWait      = 5 // (*sync.Cond).Wait
	SyncCondSignal    = 6 // (*sync.Cond).Signal
	SyncCondBroadcast = 7 // (*sync.Cond).Broadcast
)

const numOpKinds = 8 // Z always covers 0..numOpKinds-1

type modelKind uint8

const (
	modelNone   modelKind = iota
	modelAtomic           // sync/atomic function or method: an atomic access to addr
	modelRace             // internal/race annotation: a plain access to addr
	modelLock             // lockOp
	modelSync             // syncCall
	modelAsync            // the runtime later calls args[fnArg](args[argArg]) in another goroutine
	modelPool             // sync.Pool Put and Get: data flow through the pool object (no access)
)

// A model says what a call of a specially treated function does, besides
// (or, for functions without a body, instead of) its code.
type model struct {
	kind        modelKind
	read, write bool
	addrArg     int8 // argument holding the address (0 = receiver of methods)
	loadResult  bool // result = *addr (pointer loads)
	storeArg    int8 // *addr = args[storeArg] (pointer stores); -1: none
	z           uint8
	fnArg       int8 // modelAsync: the function argument
	argArg      int8 // modelAsync: the argument passed to it as parameter 0; -1: none
}

var noModel = model{storeArg: -1, argArg: -1}

// modelOf returns the model of calls to fn.
func modelOf(fn *ssa.Function) model {
	// Declared functions are modeled: those with syntax, their instances,
	// and those without (the runtime's: Load builds no code for it); not
	// wrappers, thunks or closures.
	declared := fn.Synthetic == "" || fn.Synthetic == "from type information" || strings.HasPrefix(fn.Synthetic, "instance of ")
	if !declared || fn.Parent() != nil {
		return noModel
	}
	sig := fn.Signature
	name := fn.Name()
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		} else {
			return noModel // all modeled methods have pointer receivers
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || named.Obj().Pkg() == nil {
			return noModel
		}
		return methodModel(named.Obj().Pkg().Path(), named.Obj().Name(), name)
	}
	var path string
	if fn.Pkg != nil {
		path = fn.Pkg.Pkg.Path()
	} else if obj := fn.Object(); obj != nil && obj.Pkg() != nil {
		path = obj.Pkg().Path()
	}
	if o := fn.Origin(); o != nil {
		name = o.Name() // generic instances: the name without type arguments
	}
	switch path {
	case "sync/atomic":
		return atomicFuncModel(name)
	case "time":
		// newTimer(when, period, f, arg, cp): the runtime calls f(arg, seq, delta)
		// when the timer fires (time.AfterFunc, NewTimer, NewTicker).
		if name == "newTimer" && fn.Blocks == nil {
			m := noModel
			m.kind, m.fnArg, m.argArg = modelAsync, 2, 3
			return m
		}
	case "runtime":
		m := noModel
		m.kind = modelAsync
		switch name {
		case "SetFinalizer": // SetFinalizer(obj, finalizer): finalizer(obj)
			m.fnArg, m.argArg = 1, 0
		case "AddCleanup": // AddCleanup(ptr, cleanup, arg): cleanup(arg)
			m.fnArg, m.argArg = 1, 2
		default:
			return noModel
		}
		return m
	case "internal/race":
		m := noModel
		m.kind = modelRace
		switch name {
		case "Read", "ReadPC", "ReadRange":
			m.read = true
		case "Write", "WritePC", "WriteRange":
			m.write = true
		case "ReadObjectPC":
			m.read, m.addrArg = true, 1
		case "WriteObjectPC":
			m.write, m.addrArg = true, 1
		default:
			return noModel
		}
		return m
	}
	return noModel
}

// atomicFuncModel models the functions of sync/atomic: the first argument is
// the address.
func atomicFuncModel(name string) model {
	m := noModel
	m.kind = modelAtomic
	switch {
	case strings.HasPrefix(name, "Load"):
		m.read = true
		m.loadResult = name == "LoadPointer"
	case strings.HasPrefix(name, "Store"):
		m.write = true
		if name == "StorePointer" {
			m.storeArg = 1
		}
	case strings.HasPrefix(name, "Swap"):
		m.read, m.write = true, true
		if name == "SwapPointer" {
			m.loadResult, m.storeArg = true, 1
		}
	case strings.HasPrefix(name, "CompareAndSwap"):
		m.read, m.write = true, true
		if name == "CompareAndSwapPointer" {
			m.storeArg = 2
		}
	case strings.HasPrefix(name, "Add"), strings.HasPrefix(name, "And"), strings.HasPrefix(name, "Or"):
		m.read, m.write = true, true
	default:
		return noModel
	}
	return m
}

func methodModel(pkg, typ, name string) model {
	m := noModel
	switch pkg {
	case "sync":
		switch typ {
		case "Mutex", "RWMutex":
			m.kind = modelLock
			switch name {
			case "Lock":
				m.z = LockLock
			case "Unlock":
				m.z = LockUnlock
			case "TryLock":
				m.z = LockTryLock
			case "RLock":
				m.z = LockRLock
			case "RUnlock":
				m.z = LockRUnlock
			case "TryRLock":
				m.z = LockTryRLock
			default:
				return noModel
			}
			if typ == "Mutex" && m.z != LockLock && m.z != LockUnlock && m.z != LockTryLock {
				return noModel
			}
		case "WaitGroup":
			m.kind = modelSync
			switch name {
			case "Add":
				m.z = SyncWaitGroupAdd
			case "Done":
				m.z = SyncWaitGroupDone
			case "Wait":
				m.z = SyncWaitGroupWait
			case "Go":
				m.z = SyncWaitGroupGo
			default:
				return noModel
			}
		case "Once":
			if name != "Do" {
				return noModel
			}
			m.kind, m.z = modelSync, SyncOnceDo
		case "Pool":
			// Put(x) and Get keep x in per-P arrays reached through unsafe
			// pointer arithmetic, which the analysis does not follow: model
			// them as a store into and a load from the pool object itself
			// (Get also returns what New returns: its code is analyzed).
			m.kind = modelPool
			switch name {
			case "Put":
				m.storeArg = 1
			case "Get":
				m.loadResult = true
			default:
				return noModel
			}
		case "Cond":
			m.kind = modelSync
			switch name {
			case "Wait":
				m.z = SyncCondWait
			case "Signal":
				m.z = SyncCondSignal
			case "Broadcast":
				m.z = SyncCondBroadcast
			default:
				return noModel
			}
		default:
			return noModel
		}
		return m
	case "sync/atomic":
		switch typ {
		case "Bool", "Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Pointer", "Value":
		default:
			return noModel
		}
		m.kind = modelAtomic
		ptr := typ == "Pointer" || typ == "Value" // these hold pointers: model the data flow
		switch name {
		case "Load":
			m.read = true
			m.loadResult = ptr
		case "Store":
			m.write = true
			if ptr {
				m.storeArg = 1
			}
		case "Swap":
			m.read, m.write = true, true
			if ptr {
				m.loadResult, m.storeArg = true, 1
			}
		case "CompareAndSwap":
			m.read, m.write = true, true
			if ptr {
				m.storeArg = 2
			}
		case "Add", "And", "Or":
			m.read, m.write = true, true
		default:
			return noModel
		}
		return m
	}
	return noModel
}
