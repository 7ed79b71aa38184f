package pointsto

import (
	"fmt"
	"slices"
)

// Program returns the analyzer of program n (Root.Program) alone: the same
// domains and ids as a's, with the base facts of the functions that program
// may run, and Prog.Roots only its roots. Different programs (main
// packages, the test binaries of different packages) are different
// processes: they share no memory, so analyzing each in its own run loses
// no race and lets no object, context or call edge of one reach another.
//
// The functions kept are those reachable from the program's roots and inits
// in a's context-insensitive call graph. That graph is sound for the union
// of the programs, so its restriction to what one program's entries reach
// is sound for that program; a tuple that names a function outside it (its
// values, call sites, accesses, allocation sites) describes code the
// program never runs. The program's own context-insensitive pass then runs
// over the kept facts, from its entries alone.
func (a *Analyzer) Program(n int) (*Analyzer, error) {
	f := a.Facts
	if n < 0 || n >= f.Prog.NumPrograms {
		return nil, fmt.Errorf("pointsto: program %d of %d", n, f.Prog.NumPrograms)
	}
	if !slices.ContainsFunc(f.Prog.Roots, func(r Root) bool { return r.Program != n }) {
		return a, nil
	}
	return NewAnalyzer(f.forProgram(n, a.ci))
}

// forProgram returns f restricted to program n (see Analyzer.Program).
func (f *Facts) forProgram(n int, ci *ciResult) *Facts {
	prog := *f.Prog
	prog.Roots = slices.DeleteFunc(slices.Clone(f.Prog.Roots), func(r Root) bool { return r.Program != n })
	g := *f
	g.Prog = &prog
	g.whole = f

	nM := f.Size(DomM)
	callsIn := make([][]uint32, nM)
	for i, m := range f.callerOf {
		callsIn[m] = append(callsIn[m], uint32(i))
	}
	entries := make([]bool, nM)
	roots := make([]bool, nM)
	for _, r := range prog.Roots {
		for _, init := range r.Inits {
			if m, ok := f.funcID[init]; ok {
				entries[m] = true
			}
		}
		if m, ok := f.funcID[r.Func]; ok {
			entries[m], roots[m] = true, true
		}
	}
	reached := slices.Clone(entries)
	var work []uint32
	for m, ok := range entries {
		if ok {
			work = append(work, uint32(m))
		}
	}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		for _, i := range callsIn[m] {
			for _, m2 := range ci.callees[i] {
				if !reached[m2] {
					reached[m2] = true
					work = append(work, m2)
				}
			}
		}
	}

	g.reached = reached
	keep := func(d Domain, id uint32) bool {
		switch d {
		case DomM:
			return reached[id]
		case DomV:
			m := f.valueFn[id]
			return m == NoID || reached[m]
		case DomH:
			m := f.sites[id].Func
			return m == NoID || reached[m]
		case DomI:
			return reached[f.callerOf[id]]
		case DomE:
			return reached[f.accessFn[id]]
		}
		return true
	}
	for r := range numRels {
		info, rl := &relInfos[r], &f.rels[r]
		var data []uint32
		for off := 0; off < len(rl.data); off += rl.arity {
			t := rl.data[off : off+rl.arity]
			ok := true
			for k, c := range info.cols {
				if !keep(c.Domain, t[k]) {
					ok = false
					break
				}
			}
			switch r {
			case rEntry:
				ok = entries[t[0]]
			case rRootParam:
				ok = roots[t[0]]
			}
			if ok {
				data = append(data, t...)
			}
		}
		g.rels[r] = relation{arity: rl.arity, data: data}
	}
	return &g
}

// Whole returns the facts f was restricted from (Analyzer.Program), or f.
// Ids are the same in both.
func (f *Facts) Whole() *Facts {
	if f.whole != nil {
		return f.whole
	}
	return f
}

// Programs returns the programs (Root.Program) that p has roots of, in
// order.
func (p *Program) Programs() []int {
	var out []int
	for _, r := range p.Roots {
		if len(out) == 0 || out[len(out)-1] != r.Program {
			out = append(out, r.Program)
		}
	}
	return out
}

// ProgramName names program n by its package: "path (main)" for a main
// package, "path (tests)" for a package's test binary; "" if p has no
// root of n. Names sort as programs are numbered.
func (p *Program) ProgramName(n int) string {
	for _, r := range p.Roots {
		if r.Program != n {
			continue
		}
		if r.Kind == Main {
			return r.Func.Pkg.Pkg.Path() + " (main)"
		}
		if pkg := p.PackageOf(r.Func.Pkg.Pkg); pkg != nil && pkg.ForTest != "" {
			return pkg.ForTest + " (tests)"
		}
		return r.Func.Pkg.Pkg.Path() + " (tests)"
	}
	return ""
}
