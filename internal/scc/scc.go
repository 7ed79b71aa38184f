// Package scc finds the strongly connected components of a graph: the
// rule graph's strata in datalog, the cycles of calls in condmustnot.
package scc

// Components numbers the strongly connected components of the graph with
// edges v -> succ[v], in the order of their smallest vertex: Tarjan's
// algorithm, with an explicit stack so a long chain cannot exhaust the
// goroutine stack.
func Components(succ [][]int) (comp []int, n int) {
	const unvisited = -1
	order := make([]int, len(succ)) // DFS number + 1; 0 = unvisited
	low := make([]int, len(succ))
	tarjan := make([]int, len(succ)) // component in Tarjan's numbering, or unvisited while open
	for v := range tarjan {
		tarjan[v] = unvisited
	}
	var open []int // vertices whose component is not closed, in DFS order
	type frame struct{ v, next int }
	var call []frame
	visited, ntarjan := 0, 0
	for root := range succ {
		if order[root] != 0 {
			continue
		}
		call = append(call, frame{root, 0})
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.next == 0 {
				visited++
				order[v], low[v] = visited, visited
				open = append(open, v)
			}
			if f.next < len(succ[v]) {
				w := succ[v][f.next]
				f.next++
				switch {
				case order[w] == 0:
					call = append(call, frame{w, 0})
				case tarjan[w] == unvisited: // on the open stack
					low[v] = min(low[v], order[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == order[v] {
				for {
					w := open[len(open)-1]
					open = open[:len(open)-1]
					tarjan[w] = ntarjan
					if w == v {
						break
					}
				}
				ntarjan++
			}
		}
	}
	renumber := make([]int, ntarjan)
	for i := range renumber {
		renumber[i] = unvisited
	}
	comp = make([]int, len(succ))
	for v, t := range tarjan {
		if renumber[t] == unvisited {
			renumber[t] = n
			n++
		}
		comp[v] = renumber[t]
	}
	return comp, n
}
