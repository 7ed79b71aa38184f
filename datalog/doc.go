// Package datalog is the Datalog engine every chordgo analysis runs on: a
// semi-naive, stratified evaluator over relations of dense uint32 ids, with
// no BDDs.
//
// It takes a program in a subset of Souffle's language, so the same program
// and fact files also run in Souffle for cross-checking:
//
//	.type V <: number                  // or <: symbol; `= number` also works
//	.decl edge(x:V, y:V)               // relations with typed columns
//	.input edge                        // read edge.facts (tab-separated)
//	.output path                       // write path.csv (tab-separated)
//	path(x, y) :- edge(x, y).
//	path(x, z) :- path(x, y), edge(y, z), !blocked(z, _), x != z.
//	edge(1, 2).                        // facts in the program
//
// plus `_`, number and string constants, comparisons (= != < <= > >=; only =
// and != on symbols), and // and /* */ comments. There is no arithmetic, so
// every value of a derived tuple comes from a fact or a constant of the same
// type; the engine uses that to bound each column's values before it runs.
// Variables have exactly one type each, and symbols are interned per type.
//
// It gives, through [Parse], [NewDatabase], [Database.Add] or
// [Database.LoadFacts], [Database.Run], and [Database.Tuples] (or
// [Database.TuplesFrom], from a given tuple on): the relations
// the program defines, and [Stats] with tuples and times per stratum and per
// rule (the -stats flag of `chordgo datalog` prints them).
//
// # Checking
//
// [Parse] reports, with file:line:col, syntax errors, unknown relations and
// types, arity and type mismatches, variables in a head, negation or
// comparison that no positive atom binds, and negation inside a recursive
// cycle (naming the cycle). No input makes it panic; FuzzParse and FuzzRun
// keep it that way.
//
// # Evaluation
//
// Strata are the strongly connected components of the predicate dependency
// graph (Tarjan's algorithm), in topological order (Kahn's, ties broken by
// declaration order so runs are deterministic). In a recursive stratum, rules
// that read none of the stratum's relations run once; the others run as one
// variant per recursive body atom, that atom reading only the last
// iteration's new tuples (the delta), until no relation grows. Tuples are
// append-only, so a delta is a range of tuple ids, never a copy.
//
// Each variant is compiled to a nested-loop plan: the delta atom first, then
// repeatedly the atom expected to yield the fewest tuples (none unbound: a
// membership test; else the tuples per key on its bound columns: for one
// column, the distinct values counted with a bit each, kept per relation
// and brought up to date when asked, so no index is built only to be
// estimated; for several, the keys of the index on them), ties in source
// order; negations and comparisons run as soon as
// their variables are bound. An atom that binds no new variable stops at its
// first match (a semi-join). A variant's plan is kept and used again, in
// later iterations and Runs, while the relations it estimated stay within
// a factor of two of their sizes then: any order joins the same tuples and
// derives the same set (only the tuples' order depends on the plan), and
// most iterations add few.
//
// With more than one core (GOMAXPROCS), a plan whose first step scans 512
// tuples or more shares them out: the scan is cut into chunks, workers
// with registers of their own evaluate the chunks reading the relations
// only, and collect the head tuples not in the head relation yet, each
// once per chunk (a set of their own); then
// the chunks' tuples are inserted in the chunks' order, in rounds that
// each hold about as many tuples as a bound (the first round takes a chunk
// per worker, later ones as many chunks as derived that much before), so
// the tuples waiting to be inserted stay bounded; the calling goroutine is
// one of the workers. One core would insert the same tuples in the same
// order: the steps after the first read only tuples that were there when
// the plan was made, so a chunk derives the same whenever it runs. A plan
// that tests its own head relation for a whole tuple is not split (it
// sees the tuples it inserted itself), nor one whose first step stops at
// its first match. Results, tuple ids and statistics do not depend on the
// number of cores.
//
// After a Run, facts may be added to relations that no rule derives, and
// Run again continues from the results so far: each rule runs once per
// body atom whose relation grew since the last Run, that atom reading only
// the tuples added since, and recursive strata iterate from the tuples new
// in this Run. A rule that negates a relation that grew makes Run fail, as
// an earlier Run may have used its absence. A dense relation whose domains
// grow gets more rows, or the hash set when they pass the budget. Points-to
// uses it to make contexts as the analysis reaches them.
//
// Stratifying, planning and going from one stratum to the next take time
// linear in the program (planning: times the logarithm of a body's length),
// so generated programs with tens of thousands of strata, or rules with
// thousands of atoms, cost what their evaluation costs (BENCHMARKS.md).
//
// # Storage
//
// A relation keeps its tuples in one flat []uint32. Duplicates are caught by
// bitsets (github.com/bits-and-blooms/bitset) when the column bounds make it
// cheap: one bitset for a unary relation, one bitset of second-column values
// per first-column value for a binary one, up to 32 MiB of bits, for the
// relations rules derive. Otherwise an
// open-addressing hash set of tuple ids catches them: 4 bytes a slot, and a
// byte of each key's hash so that a probe reads another tuple's row (a
// cache miss on a large relation) only when that byte matches. Joins
// look tuples up through hash indexes on exactly the bound columns each plan
// needs, built on first use (on one column whose values are few enough,
// an array by value instead: a lookup is one read, with no hashing and no
// row compared); each index chains the tuples with equal keys
// newest first, so a lookup limited to the tuples visible in an iteration
// stops early. An evaluation reads only tuples that were there when its plan
// was made, so inserting a tuple touches only the duplicate check: a plan
// brings all of its relations' indexes up to date when it is made, each
// index on a core of its own when there is work enough (the result is the
// same). A later stage's database can share a finished one's relations and
// their indexes ([Database.AddFrom]) instead of copying and indexing them
// again; a database that adds to such a relation copies the indexes first. An input relation gets no tuples
// during a Run, so it drops its set at the first Run and builds a hash set
// again only when a rule tests it for a whole tuple or facts are added
// after a Run: bitsets sized by its column bounds would cost their bits for
// every value of its first column, which for one program of a large load
// (ids from the whole load) was most of a points-to pass.
//
// An index built over a relation's tuples is sized for a key per tuple, so
// the build never rehashes, and then fitted to the keys it found (most
// have far fewer keys than tuples). [Database.Release] drops a finished
// database's indexes and hash sets for callers that only read its tuples
// from then on: what a stage keeps of its run is the tuples.
//
// Measured on transitive closure over 3,000 nodes (BENCHMARKS.md), the
// bitsets make evaluation about 9 times faster than the hash set and use less
// memory; on points-to relations, whose matrices are large and sparse, the
// hash set is the only choice that fits, and the budget picks it.
package datalog
