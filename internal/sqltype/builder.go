package sqltype

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Builder receives one value of a Type piece by piece, in the type's
// order, so that a LIST, STRUCT or MAP result is written without boxing
// each member in an interface value: a row function writes its result
// to a Builder, and each adapter provides the one that makes its
// engine's form (the DuckDB extension's column vectors, SQLite's JSON
// text, the boxed value form of the package comment).
//
// A value is a scalar (Null, String, Int, Bool) or a composite: Begin,
// then its elements (a LIST), its members in declared order (a STRUCT)
// or each entry's key and value (a MAP), then End. String's argument is
// only borrowed for the duration of the call.
type Builder interface {
	Null()
	String(s string)
	Int(n int64)
	Bool(b bool)
	Begin()
	End()
}

// Write writes v, a value of t in the boxed form, to b.
func Write(b Builder, t *Type, v any) error {
	if v == nil {
		b.Null()
		return nil
	}
	switch {
	case t.IsStruct():
		s, ok := v.([]any)
		if !ok || len(s) != len(t.Members) {
			return fmt.Errorf("want %d STRUCT member values, got %T", len(t.Members), v)
		}
		b.Begin()
		for i, m := range t.Members {
			if err := Write(b, m.Type, s[i]); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
		}
		b.End()
	case t.IsMap():
		es, ok := v.([]Entry)
		if !ok {
			return fmt.Errorf("want []Entry for a MAP, got %T", v)
		}
		b.Begin()
		for _, e := range es {
			if e.Key == nil {
				return fmt.Errorf("a MAP key is NULL")
			}
			if err := Write(b, t.Key, e.Key); err != nil {
				return err
			}
			if err := Write(b, t.Elem, e.Value); err != nil {
				return err
			}
		}
		b.End()
	case t.IsList():
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want []any for a LIST, got %T", v)
		}
		b.Begin()
		for _, e := range l {
			if err := Write(b, t.Elem, e); err != nil {
				return err
			}
		}
		b.End()
	default:
		s, ok := scalarOf(t.Base, v)
		if !ok {
			return fmt.Errorf("%T is not a value of %s", v, t.SQL())
		}
		switch s := s.(type) {
		case string:
			b.String(s)
		case bool:
			b.Bool(s)
		case int64:
			if t.Base == "INTEGER" && s != int64(int32(s)) {
				return fmt.Errorf("%d is out of INTEGER's range", s)
			}
			b.Int(s)
		default:
			return fmt.Errorf("%s values cannot be built", t.Base)
		}
	}
	return nil
}

// Field is one member's value of a STRUCT whose members are all scalars,
// written in one call (WriteRecord): S for a VARCHAR, N for an INTEGER or
// a BIGINT (0 or 1 for a BOOLEAN), Null for NULL (then S and N are not
// read). A slice of them (the builder's, Fields) is how parse_url hands
// its twelve members over.
type Field struct {
	S    string
	N    int64
	Null bool
}

// A RecordBuilder is a Builder that also writes, in one call, a STRUCT of
// scalars: the row function fills the Fields it hands out, fs[i] member
// i's value, and Record lays the members out in one loop, the value
// Begin, one scalar call per member and End would write (WriteMembers).
// The fields are the builder's own, reused from record to record: a
// slice of the caller's passed through the interface would escape, an
// allocation a row. A member's type is the builder's to know: a VARCHAR
// reads S, a BOOLEAN, INTEGER or BIGINT N. A composite member can only
// be NULL; a count of fields other than the members' is a bug, on which
// the builder panics as on any wrong shape.
type RecordBuilder interface {
	Builder
	// Fields returns n Fields for the next Record, to be set each one
	// (they hold the last record's values).
	Fields(n int) []Field
	// Record writes the record whose members' values are fs, which
	// Fields returned. src is a hint, a string that VARCHAR members may
	// be pieces of (parse_url's: the URL it parsed), or "": SQLite's JSON
	// tests src for bytes to escape once, not each member in it.
	Record(fs []Field, src string)
}

// Fields returns n Fields for a record to be written to b with
// WriteRecord (set each one): a RecordBuilder's own, else new ones; and b
// as a RecordBuilder, nil when it is not one, for WriteRecord.
func Fields(b Builder, n int) (RecordBuilder, []Field) {
	if r, ok := b.(RecordBuilder); ok {
		return r, r.Fields(n)
	}
	return nil, make([]Field, n)
}

// WriteRecord writes a STRUCT of scalars of type t, member i's value
// fs[i], to b: in one call to r, b as a RecordBuilder (the DuckDB
// extension's columns, SQLite's JSON), else member by member
// (WriteMembers); r and fs are what Fields returned. (One type assertion
// a record: a second one in WriteRecord cost parse_url's row 12
// instructions, a Record value holding the fields and the builder 25.)
// src is Record's hint (RecordBuilder), or "".
func WriteRecord(b Builder, r RecordBuilder, t *Type, fs []Field, src string) {
	if r != nil {
		r.Record(fs, src)
		return
	}
	WriteMembers(b, t, fs)
}

// WriteMembers writes fs as WriteRecord does, with Begin, one scalar call
// per member of t and End: what a Builder that is not a RecordBuilder is
// given, and the reference each RecordBuilder is tested against.
func WriteMembers(b Builder, t *Type, fs []Field) {
	CheckRecord(t, len(fs))
	b.Begin()
	for i, m := range t.Members {
		switch f, base := &fs[i], m.Type.Base; {
		case f.Null:
			b.Null()
		case base == "VARCHAR":
			b.String(f.S)
		case base == "BOOLEAN":
			b.Bool(f.N != 0)
		case base == "INTEGER" || base == "BIGINT":
			b.Int(f.N)
		default:
			panic(fmt.Sprintf("sqltype: a record field for %s", t.Members[i].Type.SQL()))
		}
	}
	b.End()
}

// FieldBuf is a RecordBuilder's Fields, reused from record to record;
// each RecordBuilder embeds one.
type FieldBuf struct{ fields []Field }

// Fields returns n Fields for Record, the builder's own: a record's
// fields are then no allocation of their own.
func (f *FieldBuf) Fields(n int) []Field {
	if cap(f.fields) < n {
		f.fields = make([]Field, n)
	}
	return f.fields[:n]
}

// CheckRecord panics unless t is a STRUCT of n members: a record of
// another shape is a bug in the row function.
func CheckRecord(t *Type, n int) {
	if !t.IsStruct() || n != len(t.Members) {
		panic(fmt.Sprintf("sqltype: %d record fields for %s", n, t.SQL()))
	}
}

// frame is an open composite of a builder: its type and how many values
// (members, elements, or keys and values) it has received.
type frame struct {
	t    *Type
	n    int
	keys []jsonKey // a STRUCT's members as JSON object keys (JSON only)
}

// child is the type of the next value inside f: a member's, a LIST's
// element type, a MAP's key or value type.
func (f frame) child() *Type {
	switch {
	case f.t.IsStruct():
		return f.t.Members[f.n].Type
	case f.t.IsMap() && f.n%2 == 0:
		return f.t.Key
	}
	return f.t.Elem
}

// JSON is a Builder that appends the value to Buf as EncodeJSON encodes
// it: SQLite's form of a composite result.
type JSON struct {
	Buf   []byte
	t     *Type
	stack []frame
	// keys holds each STRUCT type's members encoded as `"name":` (with
	// the ',' before it after the first), made the first time the
	// builder meets the type: a row of parse_url writes twelve of them.
	keys     map[*Type][]jsonKey
	FieldBuf // the Fields Record takes (RecordBuilder)
}

// jsonKey is a STRUCT member's `"name":`, with the ',' before it after the
// first member. A key of up to 32 bytes (every one of parse_url's) is also
// in pad, zero-padded, so that it is written with one fixed-size copy: a
// copy of its own length was a call to memmove for each member.
type jsonKey struct {
	s   string
	pad [32]byte
	val jsonValue // how Record writes the member's value
}

// jsonValue is how Record writes a member's value that is not NULL.
type jsonValue uint8

const (
	jsonText jsonValue = iota // VARCHAR
	jsonBool                  // BOOLEAN
	jsonInt                   // INTEGER, BIGINT
	jsonNone                  // any other type: not a record's member
)

func jsonValueOf(t *Type) jsonValue {
	switch t.Base {
	case "VARCHAR":
		return jsonText
	case "BOOLEAN":
		return jsonBool
	case "INTEGER", "BIGINT":
		return jsonInt
	}
	return jsonNone
}

// appendTo appends k to dst.
func (k *jsonKey) appendTo(dst []byte) []byte {
	n := len(dst)
	if len(k.s) > len(k.pad) || cap(dst)-n < len(k.pad) {
		return append(dst, k.s...)
	}
	*(*[32]byte)(dst[n : n+32]) = k.pad
	return dst[:n+len(k.s)]
}

// structKeys returns t's members encoded as JSON object keys.
func (j *JSON) structKeys(t *Type) []jsonKey {
	if k, ok := j.keys[t]; ok {
		return k
	}
	if j.keys == nil || len(j.keys) >= 64 { // a program has a few STRUCT types: bound it anyway
		j.keys = map[*Type][]jsonKey{}
	}
	k := make([]jsonKey, len(t.Members))
	for i, m := range t.Members {
		var b []byte
		if i > 0 {
			b = append(b, ',')
		}
		k[i].s = string(append(appendJSONString(b, m.Name), ':'))
		copy(k[i].pad[:], k[i].s)
		k[i].val = jsonValueOf(m.Type)
	}
	j.keys[t] = k
	return k
}

// Reset starts a value of type t appended to dst.
func (j *JSON) Reset(t *Type, dst []byte) {
	j.Buf, j.t, j.stack = dst, t, j.stack[:0]
}

// next writes what precedes the next value (a comma, a member's name)
// and reports whether it is a MAP key, which JSON writes as a string.
func (j *JSON) next() (key bool) {
	if len(j.stack) == 0 {
		return false
	}
	f := &j.stack[len(j.stack)-1]
	n := f.n
	f.n++
	switch {
	case f.keys != nil: // a STRUCT
		j.Buf = f.keys[n].appendTo(j.Buf) // with its ','

	case f.t.IsMap():
		if n%2 == 1 {
			return false
		}
		if n > 0 {
			j.Buf = append(j.Buf, ',')
		}
		return true
	default:
		if n > 0 {
			j.Buf = append(j.Buf, ',')
		}
	}
	return false
}

// scalar writes a scalar's JSON text, quoted as a string when it is a
// MAP key.
func (j *JSON) scalar(text []byte, quote bool) {
	if j.next() {
		j.Buf = appendJSONString(j.Buf, string(text))
		j.Buf = append(j.Buf, ':')
		return
	}
	if quote {
		j.Buf = appendJSONString(j.Buf, string(text))
		return
	}
	j.Buf = append(j.Buf, text...)
}

func (j *JSON) Null() { j.scalar([]byte("null"), false) }

func (j *JSON) String(s string) {
	if j.next() {
		j.Buf = append(appendJSONString(j.Buf, s), ':')
		return
	}
	j.Buf = appendJSONString(j.Buf, s)
}

func (j *JSON) Int(n int64) {
	var a [20]byte
	j.scalar(strconv.AppendInt(a[:0], n, 10), false)
}

func (j *JSON) Bool(b bool) { j.scalar(strconv.AppendBool(nil, b), false) }

// nextType is the type of the next value: the root's, a member's, a
// LIST's element type or a MAP's key or value type.
func (j *JSON) nextType() *Type {
	if len(j.stack) == 0 {
		return j.t
	}
	return j.stack[len(j.stack)-1].child()
}

// Begin opens the composite the next value is: the root's type, a
// member's, a LIST's element type or a MAP's value type.
func (j *JSON) Begin() {
	t := j.nextType()
	j.next()
	f := frame{t: t}
	if t.IsStruct() {
		f.keys = j.structKeys(t)
	}
	j.stack = append(j.stack, f)
	if t.IsList() {
		j.Buf = append(j.Buf, '[')
	} else {
		j.Buf = append(j.Buf, '{')
	}
}

func (j *JSON) End() {
	t := j.stack[len(j.stack)-1].t
	j.stack = j.stack[:len(j.stack)-1]
	if t.IsList() {
		j.Buf = append(j.Buf, ']')
	} else {
		j.Buf = append(j.Buf, '}')
	}
}

// Record writes a STRUCT of scalars (RecordBuilder): each member's key
// and value in one loop, where a call per member through the Builder
// interface found the key from the frame. When src is plain (jsonPlain),
// so is any member within it, which is then quoted without a test of its
// own: parse_url's members are (but host_type) pieces of the URL, and
// one test of the URL cost a third of testing them each (the domain
// parts repeat the host).
func (j *JSON) Record(fs []Field, src string) {
	t := j.nextType()
	CheckRecord(t, len(fs))
	j.next()
	keys := j.structKeys(t)
	keys = keys[:len(fs)]
	plain := jsonPlain(src)
	j.Buf = append(j.Buf, '{')
	for i := range keys {
		f, k := &fs[i], &keys[i]
		j.Buf = k.appendTo(j.Buf)
		switch {
		case f.Null:
			j.Buf = append(j.Buf, "null"...)
		case k.val == jsonText && plain && within(f.S, src):
			j.Buf = appendQuoted(j.Buf, f.S)
		case k.val == jsonText:
			j.Buf = appendJSONString(j.Buf, f.S)
		case k.val == jsonInt:
			j.Buf = strconv.AppendInt(j.Buf, f.N, 10)
		case k.val == jsonBool:
			j.Buf = strconv.AppendBool(j.Buf, f.N != 0)
		default:
			panic(fmt.Sprintf("sqltype: a record field for %s", t.Members[i].Type.SQL()))
		}
	}
	j.Buf = append(j.Buf, '}')
}

// Split writes a LIST of VARCHAR whose elements are the pieces of s
// between its sep bytes (k seps: k+1 elements), as Begin, a String per
// piece and End would (udf.SplitBuilder: url_path_segments). When s is
// plain (jsonPlain), every piece is, and the list is s in quotes with
// each sep written '","': one pass, where a String per piece tested and
// copied each apart.
func (j *JSON) Split(s string, sep byte) {
	j.Begin()
	if t := j.stack[len(j.stack)-1].t; !t.IsList() || t.Elem.Base != "VARCHAR" {
		panic("sqltype: Split writes a LIST of VARCHAR, not a " + t.SQL())
	}
	// A sep that JSON would escape is never in a plain s, which is then
	// one piece: jsonPlain(s) alone decides.
	if !jsonPlain(s) {
		for p := range strings.SplitSeq(s, string(rune(sep))) {
			j.String(p)
		}
		j.End()
		return
	}
	f := &j.stack[len(j.stack)-1]
	j.Buf = append(j.Buf, '"')
	for {
		i := strings.IndexByte(s, sep)
		if i < 0 {
			break
		}
		j.Buf = append(append(j.Buf, s[:i]...), '"', ',', '"')
		s = s[i+1:]
		f.n++
	}
	j.Buf = append(append(j.Buf, s...), '"')
	f.n++
	j.End()
}

// appendJSONString appends s as a JSON string exactly as EncodeJSON
// (encoding/json without HTML escaping) does: printable ASCII other than
// '"' and '\' as it is — nearly every URL — and anything else through
// encoding/json itself.
func appendJSONString(dst []byte, s string) []byte {
	if !jsonPlain(s) {
		var b bytes.Buffer
		appendScalar(&b, s) // cannot fail on a string
		return append(dst, b.Bytes()...)
	}
	return appendQuoted(dst, s)
}

// within reports whether s is a piece of src's memory.
func within(s, src string) bool {
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(src)))
	return off <= uintptr(len(src)) && uintptr(len(s)) <= uintptr(len(src))-off
}

// appendQuoted appends s, plain (jsonPlain), in quotes: one capacity
// check and one copy (three appends cost twice as much on parse_url's
// twelve short strings).
func appendQuoted(dst []byte, s string) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(s)+2)[:n+len(s)+2]
	dst[n] = '"'
	copy(dst[n+1:], s)
	dst[n+1+len(s)] = '"'
	return dst
}

// jsonPlain reports whether every byte of s is printable ASCII other than
// '"' and '\' (0x20–0x7e), eight bytes a step: SQLite's JSON of a
// parse_url row is mostly such strings, and a byte at a time cost four
// tests a byte.
func jsonPlain(s string) bool {
	const (
		ones = 0x0101010101010101
		high = 0x80 * ones
	)
	// zero sets the high bit of each byte of x that is 0 (exactly, when
	// no byte of x is above 0x80: the rest are noise only above a zero).
	zero := func(x uint64) uint64 { return (x - ones) &^ x & high }
	plain := func(w uint64) bool {
		// With every byte below 0x80, a byte below 0x20 borrows in
		// w - 0x20·ones exactly when no lower byte borrowed first, and the
		// first one that does is exact (a false alarm only above it).
		// And with every byte below 0x80, a byte is 0x7f exactly when
		// adding 1 to it sets its high bit, which carries into no other
		// (zero(w^0x7f·ones) cost three more operations a word).
		return w&high == 0 && ((w-0x20*ones)&^w|(w+ones))&high|zero(w^'"'*ones)|zero(w^'\\'*ones) == 0
	}
	// A short string in one word, some bytes twice (a test of every
	// byte does not mind): two overlapping 4-byte loads, or the first,
	// middle and last bytes padded with a plain 'a' (a byte loop cost four
	// tests a byte, and most of parse_url's strings are short).
	switch n := len(s); {
	case n == 0:
		return true
	case n < 4:
		return plain(uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16 | 'a'*(ones&^0xFFFFFF))
	case n < 8:
		return plain(uint64(binary.LittleEndian.Uint32([]byte(s[:4]))) | uint64(binary.LittleEndian.Uint32([]byte(s[n-4:])))<<32)
	}
	// Eight bytes a load; the last load overlaps the one before it (a
	// byte loop over the tail cost more than the words).
	for i := 0; i < len(s)-8; i += 8 {
		if !plain(binary.LittleEndian.Uint64([]byte(s[i : i+8]))) {
			return false
		}
	}
	return plain(binary.LittleEndian.Uint64([]byte(s[len(s)-8:])))
}

// Boxed is a Builder that makes the boxed value form (see the package
// comment): the form of hosts that take Go values (duckdb-go). It copies
// the strings into an arena shared by the values it builds, one
// allocation per few hundred bytes instead of one per string.
type Boxed struct {
	t        *Type
	v        any
	stack    []boxFrame
	arena    []byte // bytes before len are strings handed out: never rewritten
	FieldBuf        // the Fields Record takes (RecordBuilder)
}

type boxFrame struct {
	frame
	list    []any
	entries []Entry
	key     any
}

// Reset starts a value of type t.
func (x *Boxed) Reset(t *Type) { x.t, x.v, x.stack = t, nil, x.stack[:0] }

// Value is the value built.
func (x *Boxed) Value() any { return x.v }

// put delivers a finished value to the open composite, or as the result.
func (x *Boxed) put(v any) {
	if len(x.stack) == 0 {
		x.v = v
		return
	}
	f := &x.stack[len(x.stack)-1]
	switch {
	case f.t.IsMap() && f.n%2 == 0:
		f.key = v
	case f.t.IsMap():
		f.entries = append(f.entries, Entry{Key: f.key, Value: v})
	default:
		f.list = append(f.list, v)
	}
	f.n++
}

func (x *Boxed) Null()           { x.put(nil) }
func (x *Boxed) String(s string) { x.put(x.copy(s)) }

// copy returns a copy of s in the arena.
func (x *Boxed) copy(s string) string {
	if s == "" {
		return ""
	}
	if cap(x.arena)-len(x.arena) < len(s) {
		x.arena = make([]byte, 0, max(len(s), 512))
	}
	start := len(x.arena)
	x.arena = append(x.arena, s...)
	return unsafe.String(&x.arena[start], len(s))
}
func (x *Boxed) Int(n int64) { x.put(n) }
func (x *Boxed) Bool(b bool) { x.put(b) }

// Record writes a STRUCT of scalars as the []any WriteMembers would
// build, in one loop without a frame (WriteMembers' call per member
// through the interface cost the boxed parse_url row 10 %).
func (x *Boxed) Record(fs []Field, _ string) {
	t := x.nextType()
	CheckRecord(t, len(fs))
	v := make([]any, len(fs))
	for i, m := range t.Members {
		switch f, base := &fs[i], m.Type.Base; {
		case f.Null:
		case base == "VARCHAR":
			v[i] = x.copy(f.S)
		case base == "BOOLEAN":
			v[i] = f.N != 0
		case base == "INTEGER" || base == "BIGINT":
			v[i] = f.N
		default:
			panic(fmt.Sprintf("sqltype: a record field for %s", m.Type.SQL()))
		}
	}
	x.put(v)
}

// nextType is the type of the next value (JSON's nextType).
func (x *Boxed) nextType() *Type {
	if len(x.stack) == 0 {
		return x.t
	}
	return x.stack[len(x.stack)-1].child()
}

func (x *Boxed) Begin() {
	t := x.nextType()
	f := boxFrame{frame: frame{t: t}}
	switch {
	case t.IsMap():
		f.entries = []Entry{}
	case t.IsStruct():
		f.list = make([]any, 0, len(t.Members))
	default:
		f.list = []any{}
	}
	x.stack = append(x.stack, f)
}

func (x *Boxed) End() {
	f := x.stack[len(x.stack)-1]
	x.stack = x.stack[:len(x.stack)-1]
	if f.t.IsMap() {
		x.put(f.entries)
	} else {
		x.put(f.list)
	}
}
