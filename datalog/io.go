package datalog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// LoadFacts reads every .input relation from dir/<relation>.facts:
// tab-separated values, one tuple a line, as Souffle reads them.
func (db *Database) LoadFacts(dir string) error {
	for _, rel := range db.prog.Relations {
		if !rel.Input {
			continue
		}
		name := filepath.Join(dir, rel.Name+".facts")
		data, err := os.ReadFile(name)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s: no fact file for input relation %s (declared at %s)", name, rel.Name, rel.Pos)
			}
			return err
		}
		if err := db.ReadFacts(name, data, rel.Name); err != nil {
			return err
		}
	}
	return nil
}

// ReadFacts adds the tuples of a fact file's contents to relation rel;
// filename is used in error positions.
func (db *Database) ReadFacts(filename string, data []byte, rel string) error {
	r, err := db.relation(rel)
	if err != nil {
		return err
	}
	tuple := make([]uint32, r.arity)
	for line := 1; len(data) > 0; line++ {
		var text []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			text, data = data, nil
		}
		text = bytes.TrimSuffix(text, []byte{'\r'})
		if len(text) == 0 {
			continue
		}
		col := 1
		for i := range r.arity {
			field := text
			if j := bytes.IndexByte(text, '\t'); j >= 0 {
				field, text = text[:j], text[j+1:]
			} else if i < r.arity-1 {
				return &Error{Pos{filename, line, col + len(field)}, fmt.Sprintf("%s needs %d tab-separated columns, found %d", rel, r.arity, i+1)}
			} else {
				text = nil
			}
			typ := r.decl.Attrs[i].Type
			if typ.Kind == SymbolKind {
				tuple[i] = db.Intern(typ, string(field))
			} else {
				n, err := strconv.ParseInt(string(field), 10, 64)
				if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
					return &Error{Pos{filename, line, col}, fmt.Sprintf("column %s of %s: %q is not a 32-bit number", r.decl.Attrs[i].Name, rel, field)}
				}
				tuple[i] = uint32(int32(n))
			}
			col += len(field) + 1
		}
		if text != nil {
			return &Error{Pos{filename, line, col}, fmt.Sprintf("%s has %d columns, found more", rel, r.arity)}
		}
		if db.ran {
			if err := db.Add(rel, tuple...); err != nil {
				return fmt.Errorf("%s: %v", filename, err)
			}
			continue
		}
		r.insert(tuple)
	}
	return nil
}

// WriteOutputs writes every .output relation to dir/<relation>.csv,
// tab-separated, as Souffle does.
func (db *Database) WriteOutputs(dir string) error {
	for _, rel := range db.prog.Relations {
		if !rel.Output {
			continue
		}
		f, err := os.Create(filepath.Join(dir, rel.Name+".csv"))
		if err != nil {
			return err
		}
		err = db.WriteRelation(f, rel.Name)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteRelation writes a relation's tuples, tab-separated, one a line.
func (db *Database) WriteRelation(w io.Writer, rel string) error {
	r, err := db.relation(rel)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var line []byte
	for id := range r.n {
		line = line[:0]
		for i, v := range r.tuple(uint32(id)) {
			if i > 0 {
				line = append(line, '\t')
			}
			if typ := r.decl.Attrs[i].Type; typ.Kind == NumberKind {
				line = strconv.AppendInt(line, int64(int32(v)), 10)
			} else {
				line = append(line, db.symbols[typ].names[v]...)
			}
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
