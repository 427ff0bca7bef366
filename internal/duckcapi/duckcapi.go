//go:build urlnorm_ext

// Command duckdb is urlnorm's DuckDB loadable extension, built with
// -buildmode=c-shared on DuckDB's C extension API (ABI C_STRUCT, C API
// v1.2.0) and turned into urlnorm.duckdb_extension by ext/appendmeta. It
// registers exactly bridge.Funcs, i.e. udf.Funcs; see docs/extensions.md.
//
// Build it with "make extensions" (the build tag urlnorm_ext keeps it out
// of "go build ./...", which has no DuckDB headers).
package main

/*
#cgo CFLAGS: -I${SRCDIR}/include -O2
#include <stdint.h>
#include <stdlib.h>

// Declarations only: the definitions are in ext.c (a Go file with
// //export may not define C functions in its preamble).
void urlnorm_set_nulls(void *vec, uint64_t at, uint64_t n, const _Bool *nulls);
void urlnorm_assign_varchar(void *vec, uint64_t at, uint64_t n, const char *buf, const uint64_t *ends, const _Bool *nulls);
void *urlnorm_vector_data(void *vec);
void *urlnorm_struct_child(void *vec, uint64_t i);
int urlnorm_list_grow(void *vec, uint64_t add, uint64_t *base);
void *urlnorm_list_child(void *vec);
void *urlnorm_type_varchar(void);
void *urlnorm_type_boolean(void);
void *urlnorm_type_integer(void);
void *urlnorm_type_bigint(void);
void *urlnorm_type_map(void *key, void *value);
void *urlnorm_type_list(void *elem);
void *urlnorm_type_struct(void **types, const char **names, uint64_t n);
void urlnorm_type_destroy(void *t);
void *urlnorm_set_new(const char *name);
int urlnorm_set_add(void *set, const char *name, uint64_t fn, uint64_t nargs, void *ret, int own_nulls, int volatile_);
int urlnorm_set_register(void *con, void *set);
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

func main() {}

// urlnormDuckRegister registers every function of bridge.Funcs on con,
// one DuckDB function set per name. It returns NULL or a malloc'd error.
//
//export urlnormDuckRegister
func urlnormDuckRegister(con unsafe.Pointer) (cerr *C.char) {
	defer func() {
		if r := recover(); r != nil {
			cerr = C.CString(udf.PanicError("urlnorm_init_c_api", r).Error())
		}
	}()
	if err := register(con); err != nil {
		return C.CString("urlnorm: " + err.Error())
	}
	return nil
}

func register(con unsafe.Pointer) error {
	var order []string
	byName := map[string][]int{}
	for i, f := range bridge.Funcs {
		if _, ok := byName[f.Name]; !ok {
			order = append(order, f.Name)
		}
		byName[f.Name] = append(byName[f.Name], i)
		if err := bridge.CheckType(f.Returns); err != nil {
			return fmt.Errorf("%s: %v", f.Name, err)
		}
	}
	for _, name := range order {
		cname := C.CString(name)
		set := C.urlnorm_set_new(cname)
		for _, i := range byName[name] {
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
			rc := C.urlnorm_set_add(set, cname, C.uint64_t(i), C.uint64_t(len(f.Args)), ret, ownNulls, volatile)
			C.urlnorm_type_destroy(ret)
			if rc != 0 {
				C.free(unsafe.Pointer(cname))
				return fmt.Errorf("adding %s/%d to its function set failed", name, len(f.Args))
			}
		}
		rc := C.urlnorm_set_register(con, set)
		C.free(unsafe.Pointer(cname))
		if rc != 0 {
			return fmt.Errorf("registering %s failed (is another extension using the name?)", name)
		}
	}
	return nil
}

// logicalType builds a duckdb_logical_type; the caller destroys it.
func logicalType(t *udf.SQLType) unsafe.Pointer {
	switch {
	case t.IsMap():
		k, v := logicalType(t.Key), logicalType(t.Elem)
		defer C.urlnorm_type_destroy(k)
		defer C.urlnorm_type_destroy(v)
		return C.urlnorm_type_map(k, v)
	case t.IsList():
		elem := logicalType(t.Elem)
		defer C.urlnorm_type_destroy(elem)
		return C.urlnorm_type_list(elem)
	case t.IsStruct():
		n := len(t.Members)
		types := C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
		names := C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(uintptr(0))))
		ts := unsafe.Slice((*unsafe.Pointer)(types), n)
		ns := unsafe.Slice((**C.char)(names), n)
		for i, m := range t.Members {
			ts[i], ns[i] = logicalType(m.Type), C.CString(m.Name)
		}
		st := C.urlnorm_type_struct((*unsafe.Pointer)(types), (**C.char)(names), C.uint64_t(n))
		for i := range n {
			C.urlnorm_type_destroy(ts[i])
			C.free(unsafe.Pointer(ns[i]))
		}
		C.free(types)
		C.free(names)
		return st
	}
	switch t.Base { // bridge.CheckType allows no other
	case "BOOLEAN":
		return C.urlnorm_type_boolean()
	case "INTEGER":
		return C.urlnorm_type_integer()
	case "BIGINT":
		return C.urlnorm_type_bigint()
	}
	return C.urlnorm_type_varchar()
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
			cerr = C.CString(udf.PanicError(f.Name, r).Error())
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
		return C.CString(err.Error())
	}
	return nil
}

// flush writes a column to rows at.. of a DuckDB vector of its type.
func flush(vec unsafe.Pointer, c *bridge.Column, at uint64) error {
	n := uint64(c.Len())
	if n == 0 {
		return nil
	}
	nulls := (*C._Bool)(unsafe.Pointer(&c.Nulls[0]))
	t := c.Type
	switch {
	case t.IsStruct():
		C.urlnorm_set_nulls(vec, C.uint64_t(at), C.uint64_t(n), nulls)
		for i, ch := range c.Children {
			if err := flush(C.urlnorm_struct_child(vec, C.uint64_t(i)), ch, at); err != nil {
				return err
			}
		}
	case c.Elem != nil: // a LIST, or a MAP (a LIST of STRUCT(key, value))
		var base C.uint64_t
		if C.urlnorm_list_grow(vec, C.uint64_t(c.Elem.Len()), &base) != 0 {
			return errors.New("urlnorm: cannot grow a DuckDB list vector")
		}
		entries := unsafe.Slice((*bridge.ListEntry)(C.urlnorm_vector_data(vec)), at+n)[at:]
		for i, e := range c.Entries {
			entries[i] = bridge.ListEntry{Offset: uint64(base) + e.Offset, Length: e.Length}
		}
		C.urlnorm_set_nulls(vec, C.uint64_t(at), C.uint64_t(n), nulls)
		return flush(C.urlnorm_list_child(vec), c.Elem, uint64(base))
	case t.Base == "VARCHAR":
		C.urlnorm_assign_varchar(vec, C.uint64_t(at), C.uint64_t(n), (*C.char)(unsafe.Pointer(unsafe.SliceData(c.Buf))),
			(*C.uint64_t)(unsafe.Pointer(&c.Ends[0])), nulls)
	default:
		// Fixed-size values are written in place: DuckDB's bool (1 byte),
		// int32_t and int64_t arrays.
		data := C.urlnorm_vector_data(vec)
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
		C.urlnorm_set_nulls(vec, C.uint64_t(at), C.uint64_t(n), nulls)
	}
	return nil
}
