// Package duckcapi registers udf's functions (bridge.Funcs) in a DuckDB
// connection through DuckDB's C API and evaluates them a chunk at a time:
// DuckDB calls C once per chunk of up to 2048 rows (capi_impl.h's
// duckcapi_scalar), Go evaluates the whole chunk into columns
// (bridge.Chunk, bridge.Column) and C writes them into DuckDB's vectors
// (flush). It serves both DuckDB hosts from one source:
//
//   - the loadable extension (ext/duckdb, build tag urlnorm_ext), through
//     duckdb_extension.h and C API v1.2.0;
//   - the embedded adapter (package duckdb, any other build), through
//     duckdb.h, calling the DuckDB that duckdb-go links into the program;
//     this mode also checks constant arguments when DuckDB binds a query
//     (an unknown profile fails before any row is read).
//
// DuckDB's C headers are vendored in ext/duckdb/include.
package duckcapi

/*
#cgo CFLAGS: -I${SRCDIR}/../../ext/duckdb/include -O2
#include <stdint.h>
#include <stdlib.h>

// Declarations only: the definitions are in capi_impl.h (a Go file with
// //export may not define C functions in its preamble).
void duckcapi_set_nulls(void *vec, uint64_t at, uint64_t n, const _Bool *nulls);
void duckcapi_assign_varchar(void *vec, uint64_t at, uint64_t n, const char *buf, const uint64_t *ends);
uint64_t duckcapi_null_end(void);
void *duckcapi_vector_data(void *vec);
void *duckcapi_struct_child(void *vec, uint64_t i);
int duckcapi_list_grow(void *vec, uint64_t add, uint64_t *base);
void *duckcapi_list_child(void *vec);
void *duckcapi_type_varchar(void);
void *duckcapi_type_boolean(void);
void *duckcapi_type_integer(void);
void *duckcapi_type_bigint(void);
void *duckcapi_type_map(void *key, void *value);
void *duckcapi_type_list(void *elem);
void *duckcapi_type_struct(void **types, const char **names, uint64_t n);
void duckcapi_type_destroy(void *t);
void *duckcapi_set_new(const char *name);
int duckcapi_set_add(void *set, const char *name, uint64_t fn, uint64_t nargs, void *ret, int own_nulls, int volatile_);
int duckcapi_set_register(void *con, void *set);
void duckcapi_set_destroy(void *set);
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/bridge"
	"github.com/urlnorm/urlnorm/udf"
)

// OnError, when set (before any Register), is called with every error a
// function raises to DuckDB, from DuckDB's threads: the embedded adapter
// remembers them for duckdb.FuncError.
var OnError func(error)

// raise hands err to OnError and returns it as a malloc'd C string for
// DuckDB.
func raise(err error) *C.char {
	if OnError != nil {
		OnError(err)
	}
	return C.CString(err.Error())
}

// Set is one DuckDB function set: a name and its overloads, as indexes
// into bridge.Funcs (the handle the C side passes back on every call).
type Set struct {
	Name  string
	Funcs []int
}

// Sets groups bridge.Funcs by name, in order of first appearance.
func Sets() []Set {
	var sets []Set
	at := map[string]int{}
	for i, f := range bridge.Funcs {
		k, ok := at[f.Name]
		if !ok {
			k = len(sets)
			at[f.Name] = k
			sets = append(sets, Set{Name: f.Name})
		}
		sets[k].Funcs = append(sets[k].Funcs, i)
	}
	return sets
}

// Register registers every function of bridge.Funcs on con (a
// duckdb_connection), one DuckDB function set per name. DuckDB makes them
// visible on every connection of con's database.
func Register(con unsafe.Pointer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = udf.PanicError("registering the functions", r)
		}
	}()
	for _, f := range bridge.Funcs {
		if err := bridge.CheckType(f.Returns); err != nil {
			return fmt.Errorf("%s: %v", f.Name, err)
		}
	}
	for _, set := range Sets() {
		if err := registerSet(con, set); err != nil {
			return err
		}
	}
	return nil
}

func registerSet(con unsafe.Pointer, set Set) error {
	name := set.Name
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	cset := C.duckcapi_set_new(cname)
	for _, i := range set.Funcs {
		f := bridge.Funcs[i]
		ret := logicalType(f.Returns)
		ownNulls := C.int(0)
		if f.RaisesOnNull() {
			ownNulls = 1
		}
		volatile := C.int(0)
		if f.Volatile {
			volatile = 1
		}
		rc := C.duckcapi_set_add(cset, cname, C.uint64_t(i), C.uint64_t(len(f.Args)), ret, ownNulls, volatile)
		C.duckcapi_type_destroy(ret)
		if rc != 0 {
			C.duckcapi_set_destroy(cset)
			return fmt.Errorf("adding %s/%d to its function set failed", name, len(f.Args))
		}
	}
	if C.duckcapi_set_register(con, cset) != 0 {
		return fmt.Errorf("registering %s failed (is another extension using the name?)", name)
	}
	return nil
}

// logicalType builds a duckdb_logical_type; the caller destroys it.
func logicalType(t *udf.SQLType) unsafe.Pointer {
	switch {
	case t.IsMap():
		k, v := logicalType(t.Key), logicalType(t.Elem)
		defer C.duckcapi_type_destroy(k)
		defer C.duckcapi_type_destroy(v)
		return C.duckcapi_type_map(k, v)
	case t.IsList():
		elem := logicalType(t.Elem)
		defer C.duckcapi_type_destroy(elem)
		return C.duckcapi_type_list(elem)
	case t.IsStruct():
		n := len(t.Members)
		types := C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
		names := C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
		ts := unsafe.Slice((*unsafe.Pointer)(types), n)
		ns := unsafe.Slice((**C.char)(names), n)
		for i, m := range t.Members {
			ts[i], ns[i] = logicalType(m.Type), C.CString(m.Name)
		}
		st := C.duckcapi_type_struct((*unsafe.Pointer)(types), (**C.char)(names), C.uint64_t(n))
		for i := range n {
			C.duckcapi_type_destroy(ts[i])
			C.free(unsafe.Pointer(ns[i]))
		}
		C.free(types)
		C.free(names)
		return st
	}
	switch t.Base { // bridge.CheckType allows no other
	case "BOOLEAN":
		return C.duckcapi_type_boolean()
	case "INTEGER":
		return C.duckcapi_type_integer()
	case "BIGINT":
		return C.duckcapi_type_bigint()
	}
	return C.duckcapi_type_varchar()
}

// columns reuses result buffers across chunks, one pool per result type;
// DuckDB calls from several threads at once, each call takes its own.
var columns = func() map[*udf.SQLType]*sync.Pool {
	m := map[*udf.SQLType]*sync.Pool{}
	for _, f := range bridge.Funcs {
		t := f.Returns
		if m[t] == nil {
			m[t] = &sync.Pool{New: func() any { return bridge.NewColumn(t) }}
		}
	}
	return m
}()

// urlnormDuckChunk evaluates bridge.Funcs[fn] over one chunk of n rows and
// writes the results to the output vector (in pieces of at most about
// bridge.FlushBytes). It returns NULL or a malloc'd error message, which
// aborts the query.
//
//export urlnormDuckChunk
func urlnormDuckChunk(fn, n, nargs C.uint64_t, data *unsafe.Pointer, valid **C.uint64_t, out unsafe.Pointer) (cerr *C.char) {
	f := bridge.Funcs[fn]
	defer func() {
		if r := recover(); r != nil {
			cerr = raise(udf.PanicError(f.Name, r))
		}
	}()
	var in [udf.MaxArgs]bridge.Vector
	ds, vs := unsafe.Slice(data, nargs), unsafe.Slice(valid, nargs)
	for i := range ds {
		in[i] = bridge.Vector{Data: ds[i], Validity: (*uint64)(unsafe.Pointer(vs[i]))}
	}
	pool := columns[f.Returns]
	col := pool.Get().(*bridge.Column)
	defer pool.Put(col)
	col.Reset()
	err := bridge.Chunk(f, int(n), in[:nargs], col, func(c *bridge.Column, at int) error {
		return flush(out, c, uint64(at))
	})
	if err != nil {
		return raise(err)
	}
	return nil
}

// cNullEnd is the C side's flag of a NULL row's end, which must be
// bridge.NullEnd (TestNullEnd).
func cNullEnd() uint64 { return uint64(C.duckcapi_null_end()) }

// flush writes a column to rows at.. of a DuckDB vector of its type.
func flush(vec unsafe.Pointer, c *bridge.Column, at uint64) error {
	n := uint64(c.Len())
	if n == 0 {
		return nil
	}
	t := c.Type
	if t.Base == "VARCHAR" { // its NULL flags are in its ends (bridge.NullEnd)
		C.duckcapi_assign_varchar(vec, C.uint64_t(at), C.uint64_t(n), (*C.char)(unsafe.Pointer(unsafe.SliceData(c.Buf))),
			(*C.uint64_t)(unsafe.Pointer(&c.Ends[0])))
		return nil
	}
	nulls := (*C._Bool)(unsafe.Pointer(&c.Nulls[0]))
	switch {
	case t.IsStruct():
		C.duckcapi_set_nulls(vec, C.uint64_t(at), C.uint64_t(n), nulls)
		for i, ch := range c.Children {
			if err := flush(C.duckcapi_struct_child(vec, C.uint64_t(i)), ch, at); err != nil {
				return err
			}
		}
	case c.Elem != nil: // a LIST, or a MAP (a LIST of STRUCT(key, value))
		var base C.uint64_t
		if C.duckcapi_list_grow(vec, C.uint64_t(c.Elem.Len()), &base) != 0 {
			return errors.New("urlnorm: cannot grow a DuckDB list vector")
		}
		entries := unsafe.Slice((*bridge.ListEntry)(C.duckcapi_vector_data(vec)), at+n)[at:]
		for i, e := range c.Entries {
			entries[i] = bridge.ListEntry{Offset: uint64(base) + e.Offset, Length: e.Length}
		}
		C.duckcapi_set_nulls(vec, C.uint64_t(at), C.uint64_t(n), nulls)
		return flush(C.duckcapi_list_child(vec), c.Elem, uint64(base))
	default:
		// Fixed-size values are written in place: DuckDB's bool (1 byte),
		// int32_t and int64_t arrays.
		data := C.duckcapi_vector_data(vec)
		switch t.Base {
		case "BOOLEAN":
			d := unsafe.Slice((*bool)(data), at+n)[at:]
			for i, v := range c.Ints {
				d[i] = v != 0
			}
		case "INTEGER":
			d := unsafe.Slice((*int32)(data), at+n)[at:]
			for i, v := range c.Ints {
				d[i] = int32(v)
			}
		case "BIGINT":
			copy(unsafe.Slice((*int64)(data), at+n)[at:], c.Ints)
		}
		C.duckcapi_set_nulls(vec, C.uint64_t(at), C.uint64_t(n), nulls)
	}
	return nil
}
