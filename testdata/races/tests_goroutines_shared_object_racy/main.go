// TestMany's goroutines all map the one DB the package initializer opened
// (main_test.go), which no test owns: they race on its fields. TestOne's
// DB is its own. The DB's code is tests_goroutines_own_objects'.
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
	if len(db.data) != size { // want "race"
		err = errors.New("short map")
	}
	return err
}

func (db *DB) munmap() { unmapData(db) }

func mapData(db *DB, size int) {
	db.data = make([]byte, size) // want "race"
	db.size = size               // want "race"
}

func unmapData(db *DB) {
	db.data = nil // want "race"
	db.size = 0   // want "race"
}

// Close unmaps the data.
func (db *DB) Close() { db.munmap() }

func main() {}
