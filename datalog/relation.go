package datalog

import (
	"runtime"
	"slices"
	"sync"

	"github.com/bits-and-blooms/bitset"
)

// relation stores the tuples of one relation. Tuples are append-only, so a
// tuple's id (its position) tells when it was derived: semi-naive evaluation
// reads the delta of an iteration as a range of ids, with no copying.
type relation struct {
	decl  *Relation
	arity int
	rows  []uint32 // tuple id i is rows[i*arity : (i+1)*arity]
	n     int

	// Duplicate elimination: either a hash set over tuple ids, or, when the
	// domains are small enough (see makeDense), bitsets. A relation no rule
	// adds to drops its set (see freeze) and builds it again only if a
	// membership test needs it.
	set   hashIndex
	dense []bitset.BitSet // arity 1: dense[0]; arity 2: dense[x] holds the ys
	width uint            // bits per bitset in dense

	// Secondary indexes, by bound columns. Each is brought up to date only
	// when a plan is made that may use it (catchUp): an evaluation reads
	// only the tuples that were there when it started.
	indexes []*hashIndex

	// keys[c] counts the distinct values of column c, for the planner's
	// estimates (distinct); nil until one is asked for.
	keys []*columnKeys
}

// columnKeys counts the distinct values of one column of a relation's
// tuples: a bit per value seen, brought up to date when asked, like an
// index but with a bit test instead of a hash probe per tuple.
type columnKeys struct {
	seen     bitset.BitSet
	count    int
	top      uint32 // the largest value
	counted  int    // tuples counted so far
	tooLarge bool   // a value past columnKeysMax: count with an index instead
}

// columnKeysMax bounds the values a columnKeys counts with bits (2 MiB of
// them); relations of chordgo's analyses hold dense ids far below it.
const columnKeysMax = 1 << 24

func newRelation(decl *Relation) *relation {
	r := &relation{decl: decl, arity: decl.Arity()}
	r.set.init(allColumns(r.arity), false, 0)
	return r
}

// freeze drops the hash set of a relation that will get no more tuples.
func (r *relation) freeze() {
	if r.dense == nil {
		r.set = hashIndex{}
	}
}

// ensureSet rebuilds a frozen relation's hash set.
func (r *relation) ensureSet() {
	if r.dense == nil && r.set.slots == nil {
		r.set.init(allColumns(r.arity), false, r.n)
		for id := range r.n {
			r.set.add(r, uint32(id))
		}
	}
}

// clear empties r, a worker's scratch relation (plan.derived), keeping
// its hash set's room, with rows as the room for its tuples.
func (r *relation) clear(rows []uint32) {
	r.rows, r.n = rows[:0], 0
	clear(r.set.slots)
	clear(r.set.tags)
	r.set.used = 0
}

func allColumns(arity int) []int {
	cols := make([]int, arity)
	for i := range cols {
		cols[i] = i
	}
	return cols
}

func (r *relation) tuple(id uint32) []uint32 {
	off := int(id) * r.arity
	return r.rows[off : off+r.arity : off+r.arity]
}

// contains reports whether t is in the relation.
func (r *relation) contains(t []uint32) bool {
	if r.dense != nil {
		return r.denseTest(t)
	}
	r.ensureSet()
	return r.set.find(r, t) != 0
}

func (r *relation) denseTest(t []uint32) bool {
	if r.arity == 1 {
		return r.dense[0].Test(uint(t[0]))
	}
	return uint(t[0]) < uint(len(r.dense)) && r.dense[t[0]].Test(uint(t[1]))
}

// reserve makes room for n more tuples in the rows and the hash set, as
// many grow steps at once.
func (r *relation) reserve(n int) {
	if n == 0 {
		return
	}
	r.rows = slices.Grow(r.rows, n*r.arity)
	if r.dense == nil {
		r.ensureSet()
		r.set.reserve(r, n)
	}
}

// insert adds t and reports whether it was new.
func (r *relation) insert(t []uint32) bool {
	id := uint32(r.n)
	if r.dense != nil {
		if r.denseTest(t) {
			return false
		}
		row := &r.dense[0]
		if r.arity == 2 {
			row = &r.dense[t[0]]
			if row.Len() == 0 {
				*row = *bitset.New(r.width)
			}
			row.Set(uint(t[1]))
		} else {
			row.Set(uint(t[0]))
		}
		r.rows = append(r.rows, t...)
	} else {
		r.ensureSet()
		// Append first so the set can compare against the new row.
		r.rows = append(r.rows, t...)
		if !r.set.add(r, id) {
			r.rows = r.rows[:len(r.rows)-r.arity]
			return false
		}
	}
	r.n++
	return true
}

// index returns the index on cols, building it on first use, with every
// tuple of the relation so far.
func (r *relation) index(cols []int) *hashIndex {
	for i, ix := range r.indexes {
		if equalInts(ix.cols, cols) {
			r.catchUp()
			return r.indexes[i] // (a copy, if catchUp copied a shared one)
		}
	}
	found := &hashIndex{}
	if len(cols) == 1 {
		if k := r.columnKeys(cols[0]); !k.tooLarge && byValueFits(k.top, k.count) {
			found.initByValue(cols, k.top, r.n)
		}
	}
	if found.byValue == nil {
		found.init(cols, true, r.n)
	}
	r.indexes = append(r.indexes, found)
	r.catchUp()
	found.fit(r)
	return found
}

// distinct returns the number of distinct values column col holds: the
// keys an index on that column alone has, without the index (most such
// estimates are for atoms joined later on more columns, through another
// index). ok is false when a value is too large to count with bits.
func (r *relation) distinct(col int) (n int, ok bool) {
	k := r.columnKeys(col)
	return k.count, !k.tooLarge
}

// columnKeys returns column col's count of distinct values, brought up
// to date.
func (r *relation) columnKeys(col int) *columnKeys {
	if r.keys == nil {
		r.keys = make([]*columnKeys, r.arity)
	}
	k := r.keys[col]
	if k == nil {
		k = &columnKeys{}
		r.keys[col] = k
	}
	for id := k.counted; id < r.n && !k.tooLarge; id++ {
		v := r.rows[id*r.arity+col]
		switch {
		case v >= columnKeysMax:
			k.tooLarge = true
		case !k.seen.Test(uint(v)):
			k.seen.Set(uint(v))
			k.count++
			k.top = max(k.top, v)
		}
	}
	k.counted = r.n
	return k
}

// fit shrinks the slots of an index built over a relation's tuples to its
// keys: init sized them for a key per tuple, so the build never rehashes,
// but most indexes have far fewer keys than tuples (kobj.dl's pt by
// context: one in a hundred), and an index lives as long as its database.
// Only where the keys sit changes, never what a lookup finds.
func (ix *hashIndex) fit(r *relation) {
	if ix.byValue != nil {
		return
	}
	if size := slotsFor(ix.used); size < len(ix.slots) {
		ix.rehash(r, size)
	}
}

// catchUpParallel is the work (tuples times indexes) from which catchUp
// gives each index a goroutine: below it, starting them costs more than
// the hashing they share out.
const catchUpParallel = 1 << 14

// catchUp adds the tuples added since to every index of the relation.
// The indexes are independent of each other, so with work enough they are
// brought up to date on all cores at once, with the same result. An index
// shared with another database's relation (AddFrom) is copied first.
func (r *relation) catchUp() {
	var lagging []*hashIndex
	work := 0
	for i, ix := range r.indexes {
		if len(ix.next) == r.n {
			continue
		}
		if ix.shared {
			ix = ix.clone()
			r.indexes[i] = ix
		}
		lagging = append(lagging, ix)
		work += r.n - len(ix.next)
	}
	if len(lagging) > 1 && work >= catchUpParallel && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		for _, ix := range lagging[1:] {
			wg.Go(func() { ix.catchUp(r) })
		}
		lagging[0].catchUp(r)
		wg.Wait()
		return
	}
	for _, ix := range lagging {
		ix.catchUp(r)
	}
}

// catchUp adds the relation's tuples from the first one not indexed yet.
func (ix *hashIndex) catchUp(r *relation) {
	from := len(ix.next)
	ix.next = slices.Grow(ix.next, r.n-from) // (slots grow with the keys)
	for id := from; id < r.n; id++ {
		ix.add(r, uint32(id))
	}
}

// clone returns a copy of the index that can change without changing ix.
func (ix *hashIndex) clone() *hashIndex {
	return &hashIndex{
		cols:    ix.cols,
		slots:   slices.Clone(ix.slots),
		tags:    slices.Clone(ix.tags),
		byValue: slices.Clone(ix.byValue),
		next:    slices.Clone(ix.next),
		used:    ix.used,
		chained: ix.chained,
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// denseBudget bounds the bits a dense relation may take. Bitsets beat the
// hash set by a wide margin when the domains are small (transitive closure on
// 3,000 nodes: 1.1 MB of bits instead of 100 MB of hash slots and rows), and
// lose when a binary relation's matrix is sparse and large, as points-to
// relations are. See BENCHMARKS.md.
var denseBudget uint64 = 1 << 28 // 32 MiB; a variable so benchmarks can compare

// bitsetHeaderBits is the size of a bitset.BitSet (a length and a slice),
// in bits.
const bitsetHeaderBits = 32 * 8

// makeDense switches the relation to bitsets when its column bounds allow:
// bound[i] is one more than the largest value column i can ever hold.
func (r *relation) makeDense(bound []uint64) {
	switch {
	case r.arity == 1 && bound[0] <= denseBudget:
		r.dense = []bitset.BitSet{*bitset.New(0)} // grows as values come
	case r.arity == 2 && bound[0] <= denseBudget && bound[1] <= denseBudget && bound[0]*(bound[1]+bitsetHeaderBits) <= denseBudget && bound[1] > 0:
		// (each bound checked first: the product of two unknown bounds,
		// math.MaxUint64, overflows to 1; and every row costs a BitSet
		// header, even when empty)
		r.dense = make([]bitset.BitSet, bound[0])
		r.width = uint(bound[1])
	default:
		return
	}
	rows, n := r.rows, r.n
	r.rows, r.n = nil, 0
	for id := range n {
		r.insert(rows[id*r.arity : (id+1)*r.arity])
	}
	r.set = hashIndex{}
}

// fits reports whether tuple t is inside the shape of a dense relation.
func (r *relation) fits(t []uint32) bool {
	if r.arity == 1 {
		return uint64(t[0]) < denseBudget
	}
	return uint(t[0]) < uint(len(r.dense)) && uint(t[1]) < r.width
}

// reshape fits a dense relation to column bounds that grew (facts added
// after a Run): more rows, or wider ones (a row's bitset grows as bits are
// set), or, past the budget, the hash set.
func (r *relation) reshape(bound []uint64) {
	switch {
	case r.arity == 1 && bound[0] <= denseBudget:
		return
	case r.arity == 2 && bound[0] <= denseBudget && bound[1] <= denseBudget && bound[0]*(bound[1]+bitsetHeaderBits) <= denseBudget:
		if n := int(bound[0]); n > len(r.dense) {
			r.dense = append(r.dense, make([]bitset.BitSet, n-len(r.dense))...)
		}
		r.width = max(r.width, uint(bound[1]))
		return
	}
	r.dense = nil
	r.width = 0
	r.set.init(allColumns(r.arity), false, r.n)
	for id := range r.n {
		r.set.add(r, uint32(id))
	}
}

// hashIndex maps the values of some columns to the tuples that have them.
// Open addressing over tuple ids keeps it at 5 bytes a slot: the id, and a
// byte of the key's hash (tags), so that a probe reads the tuple's row, a
// cache miss on a large relation, only when the tag matches (1 in 256
// slots of other keys). With chained set, next links every tuple to the
// previous one with the same key, newest first, so a lookup restricted to
// an id range can stop early.
//
// An index on one column whose values are few enough (byValueFits) is
// an array by value instead (byValue): a lookup is one read, with no
// hashing, probing or reading of rows, for 4 bytes per value up to the
// largest, at most 1.6 times the hash slots it replaces. The tuples it
// finds, and their order, are the same.
type hashIndex struct {
	cols    []int
	slots   []uint32 // tuple id + 1 of the newest tuple with the key; 0 = empty
	tags    []uint8  // by slot: the top byte of the key's hash
	byValue []uint32 // instead of slots and tags: by value, as slots
	next    []uint32 // tuple id + 1 of the previous tuple with the same key
	used    int
	chained bool
	shared  bool // by relations of two databases (AddFrom): read only
}

// byValueFits reports whether an array by value up to top, for keys
// distinct values, takes at most twice the bytes per entry of the hash
// slots (4 bytes against 5, so 1.6 times the memory).
func byValueFits(top uint32, keys int) bool {
	return top < columnKeysMax && int(top) < 2*slotsFor(keys)
}

// initByValue makes an empty chained index on one column as an array by
// value with room for values up to top and n tuples.
func (ix *hashIndex) initByValue(cols []int, top uint32, n int) {
	ix.cols = cols
	ix.chained = true
	ix.byValue = make([]uint32, max(int(top)+1, 16))
	ix.next = make([]uint32, 0, n)
}

// addByValue adds tuple id to an index by value, and reports false,
// changing nothing, when its value is past what byValueFits allows.
func (ix *hashIndex) addByValue(r *relation, id uint32) bool {
	v := r.rows[int(id)*r.arity+ix.cols[0]]
	if int(v) >= len(ix.byValue) {
		if !byValueFits(v, ix.used+1) {
			return false
		}
		grown := make([]uint32, max(int(v)+1, min(2*len(ix.byValue), 2*slotsFor(ix.used+1))))
		copy(grown, ix.byValue)
		ix.byValue = grown
	}
	prev := ix.byValue[v]
	if prev == 0 {
		ix.used++
	}
	ix.byValue[v] = id + 1
	ix.link(id, prev)
	return true
}

// hashByValue turns an index by value into a hash index with the same
// keys and chains.
func (ix *hashIndex) hashByValue() {
	size := slotsFor(ix.used + 1)
	ix.slots = make([]uint32, size)
	ix.tags = make([]uint8, size)
	m := ix.mask()
	for v, s := range ix.byValue {
		if s == 0 {
			continue
		}
		h := hashValues([]uint32{uint32(v)})
		i := h & m
		for ix.slots[i] != 0 {
			i = (i + 1) & m
		}
		ix.slots[i] = s
		ix.tags[i] = tag(h)
	}
	ix.byValue = nil
}

// init makes an empty index with room for n tuples, so that one built over
// a relation's tuples does not grow and rehash them log n times.
func (ix *hashIndex) init(cols []int, chained bool, n int) {
	size := slotsFor(n)
	ix.cols = cols
	ix.chained = chained
	ix.slots = make([]uint32, size)
	ix.tags = make([]uint8, size)
	if chained {
		ix.next = make([]uint32, 0, n)
	}
}

// tag is the byte of hash h kept per slot: the top one, as the slot's
// position comes from the low bits.
func tag(h uint64) uint8 { return uint8(h >> 56) }

func hashKey(cols []int, t []uint32) uint64 {
	h := uint64(len(cols))
	for _, c := range cols {
		h = (h ^ uint64(t[c])) * 0x9E3779B97F4A7C15
	}
	return mix(h)
}

func hashValues(key []uint32) uint64 {
	h := uint64(len(key))
	for _, v := range key {
		h = (h ^ uint64(v)) * 0x9E3779B97F4A7C15
	}
	return mix(h)
}

// mix is MurmurHash3's finalizer: the table takes the low bits, and a
// product alone leaves them depending on the inputs' low bits only.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

func (ix *hashIndex) mask() uint64 { return uint64(len(ix.slots) - 1) }

// slotsFor is the table size for n keys at a load factor of at most 3/4
// (linear probing stays short with a mixed hash).
func slotsFor(n int) int {
	size := 16
	for n*4 > size*3 {
		size *= 2
	}
	return size
}

// reserve makes room for n more tuples with one rehash at most.
func (ix *hashIndex) reserve(r *relation, n int) {
	if size := slotsFor(ix.used + n); size > len(ix.slots) {
		ix.rehash(r, size)
	}
	if ix.chained {
		ix.next = slices.Grow(ix.next, n)
	}
}

// add inserts tuple id. For an unchained index (a set) it returns false and
// changes nothing when a tuple with the same key is already there.
func (ix *hashIndex) add(r *relation, id uint32) bool {
	if ix.byValue != nil {
		if ix.addByValue(r, id) {
			return true
		}
		ix.hashByValue()
	}
	if (ix.used+1)*4 > len(ix.slots)*3 { // slotsFor(used+1) > len, without its loop
		ix.rehash(r, max(2*len(ix.slots), 16))
	}
	t := r.tuple(id)
	m := ix.mask()
	h := hashKey(ix.cols, t)
	tg := tag(h)
	for i := h & m; ; i = (i + 1) & m {
		s := ix.slots[i]
		if s == 0 {
			ix.slots[i] = id + 1
			ix.tags[i] = tg
			ix.used++
			if ix.chained {
				ix.link(id, 0)
			}
			return true
		}
		if ix.tags[i] == tg && sameKey(ix.cols, r.tuple(s-1), t) {
			if !ix.chained {
				return false
			}
			ix.slots[i] = id + 1
			ix.link(id, s)
			return true
		}
	}
}

// link records the previous tuple with id's key. Tuples are added to an
// index in id order, so next grows by one each time.
func (ix *hashIndex) link(id, prev uint32) {
	ix.next = append(ix.next[:id], prev)
}

func sameKey(cols []int, a, b []uint32) bool {
	for _, c := range cols {
		if a[c] != b[c] {
			return false
		}
	}
	return true
}

// rehash moves the keys into size slots (at least slotsFor(ix.used)). It
// reads the rows in id order rather than in the old slots' order, which
// on a large relation is a cache miss per key: a set's keys are all the
// relation's tuples, and a chained index's slots hold the newest tuple of
// each key, the ones no other tuple's next names. Where a key lands
// changes, never what a lookup finds.
func (ix *hashIndex) rehash(r *relation, size int) {
	ix.slots = make([]uint32, size)
	ix.tags = make([]uint8, size)
	m := ix.mask()
	place := func(id int) {
		h := hashKey(ix.cols, r.tuple(uint32(id)))
		i := h & m
		for ix.slots[i] != 0 {
			i = (i + 1) & m
		}
		ix.slots[i] = uint32(id) + 1
		ix.tags[i] = tag(h)
	}
	if !ix.chained {
		for id := range ix.used { // a set holds every tuple: ids 0 to used-1
			place(id)
		}
		return
	}
	older := bitset.New(uint(len(ix.next)))
	for _, prev := range ix.next {
		if prev != 0 {
			older.Set(uint(prev - 1))
		}
	}
	for id := range ix.next {
		if !older.Test(uint(id)) {
			place(id)
		}
	}
}

// find returns the newest tuple id + 1 whose key columns equal those of t
// (a full tuple), or 0.
func (ix *hashIndex) find(r *relation, t []uint32) uint32 {
	m := ix.mask()
	h := hashKey(ix.cols, t)
	tg := tag(h)
	for i := h & m; ; i = (i + 1) & m {
		s := ix.slots[i]
		if s == 0 || ix.tags[i] == tg && sameKey(ix.cols, r.tuple(s-1), t) {
			return s
		}
	}
}

// lookup is find for a key given as the values of ix.cols in order.
func (ix *hashIndex) lookup(r *relation, key []uint32) uint32 {
	if ix.byValue != nil {
		if v := key[0]; int(v) < len(ix.byValue) {
			return ix.byValue[v]
		}
		return 0
	}
	m := ix.mask()
	h := hashValues(key)
	tg := tag(h)
	for i := h & m; ; i = (i + 1) & m {
		s := ix.slots[i]
		if s == 0 {
			return 0
		}
		if ix.tags[i] != tg {
			continue
		}
		t := r.tuple(s - 1)
		match := true
		for k, c := range ix.cols {
			if t[c] != key[k] {
				match = false
				break
			}
		}
		if match {
			return s
		}
	}
}

// bytes estimates the memory the relation holds, for statistics.
func (r *relation) bytes() int {
	b := cap(r.rows)*4 + len(r.set.slots)*5
	for i := range r.dense {
		b += len(r.dense[i].Words()) * 8
	}
	for _, ix := range r.indexes {
		b += len(ix.slots)*5 + len(ix.byValue)*4 + cap(ix.next)*4
	}
	for _, k := range r.keys {
		if k != nil {
			b += len(k.seen.Words()) * 8
		}
	}
	return b
}
