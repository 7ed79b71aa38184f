package bbolt_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"go.etcd.io/bbolt"
	"go.etcd.io/bbolt/internal/guts_cli"
)

// TestWitnessFreepagesOutlivesCheck: a read-only DB opened without
// PreLoadFreelist, whose freelist is not synced (NoFreelistSync), loads
// it in tx.Check's goroutine (tx.check -> loadFreelist -> freepages). On a
// corrupt page freepages panics inside the loop that drains its scanning
// goroutine (db.go:1300); tx.check recovers the panic and the check ends,
// while the scanning goroutine, after its send, still reads the
// transaction that freepages' deferred Rollback closes (tx.go:374, 377
// against tx.go:639, 631) and the mapping that DB.Close unmaps
// (bolt_unix.go:86 against db.go:1132). cmd/bbolt never gets there: every
// DB it checks preloads its freelist in Open. The corrupt page is the last
// one the scan visits, so that the goroutine ends its scan soon after its
// send (a scan that went on could read the closed Tx's nil db and crash).
func TestWitnessFreepagesOutlivesCheck(t *testing.T) {
	bucket := []byte("data")
	path := filepath.Join(t.TempDir(), "db")
	db, err := bbolt.Open(path, 0600, &bbolt.Options{PageSize: 4096, NoFreelistSync: true})
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bbolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		for i := range 100 {
			if err := b.Put([]byte(fmt.Sprintf("%04d", i)), make([]byte, 100)); err != nil {
				return err
			}
		}
		return nil
	}))
	// The last leaf page the scan visits gets its keys out of order: the
	// scanning goroutine reports it and goes on to finish its scan.
	root, _, err := guts_cli.ReadPage(path, uint64(mustGetBucketRootPage(t, db, bucket)))
	require.NoError(t, err)
	require.NoError(t, db.Close())
	elems := root.BranchPageElements()
	leaf, buf, err := guts_cli.ReadPage(path, uint64(elems[len(elems)-1].Pgid()))
	require.NoError(t, err)
	leaf.LeafPageElement(1).Key()[0] = 0
	require.NoError(t, guts_cli.WritePage(path, buf))

	ro, err := bbolt.Open(path, 0600, &bbolt.Options{ReadOnly: true})
	require.NoError(t, err)
	tx, err := ro.Begin(false)
	require.NoError(t, err)
	var errs []error
	for e := range tx.Check() {
		errs = append(errs, e)
	}
	require.NotEmpty(t, errs)
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, tx.Rollback())
	require.NoError(t, ro.Close())
}
