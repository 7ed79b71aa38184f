// Each test's goroutines open DBs of their own (main_test.go): each of
// TestMany's goroutines one, TestOne one that a goroutine of Check reads.
// mmap hands the DB to plain helpers that write its fields, and defers a
// closure that holds the variable holding the DB, as go.etcd.io/bbolt
// does. No DB is touched by two goroutines at once: race-free.
package main

import "errors"

type DB struct {
	data []byte
	size int
}

// Open returns a new DB, mapped.
func Open() *DB {
	db := &DB{}
	if err := db.mmap(8); err != nil {
		return nil
	}
	return db
}

func (db *DB) mmap(size int) (err error) {
	db.munmap()
	mapData(db, size)
	defer func() {
		if err != nil {
			db.munmap()
		}
	}()
	if len(db.data) != size {
		err = errors.New("short map")
	}
	return err
}

func (db *DB) munmap() { unmapData(db) }

func mapData(db *DB, size int) {
	db.data = make([]byte, size)
	db.size = size
}

func unmapData(db *DB) {
	db.data = nil
	db.size = 0
}

// Close unmaps the data.
func (db *DB) Close() { db.munmap() }

// Check sends the size of the data from a goroutine of its own.
func (db *DB) Check() <-chan int {
	ch := make(chan int)
	go func() {
		ch <- db.size
	}()
	return ch
}

func main() {}
