package bridge

import (
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/sqltype"
	"github.com/urlnorm/urlnorm/udf"
)

// CheckType reports whether Column can hold t: VARCHAR, BOOLEAN, INTEGER,
// BIGINT, and LISTs, STRUCTs and MAPs of them.
func CheckType(t *udf.SQLType) error {
	switch {
	case t.IsMap():
		if err := CheckType(t.Key); err != nil {
			return err
		}
		return CheckType(t.Elem)
	case t.IsList():
		return CheckType(t.Elem)
	case t.IsStruct():
		for _, m := range t.Members {
			if err := CheckType(m.Type); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
		}
		return nil
	}
	switch t.Base {
	case "VARCHAR", "BOOLEAN", "INTEGER", "BIGINT":
		return nil
	}
	return fmt.Errorf("type %s is not supported by the extension", t.Base)
}

// ListEntry has the layout of DuckDB's duckdb_list_entry.
type ListEntry struct {
	Offset, Length uint64
}

// Column holds rows of a type in the columnar shape of a DuckDB vector, so
// the cgo side can hand each vector to DuckDB in one call. Nulls has one
// flag per row at every level but VARCHAR's. A VARCHAR column keeps its
// values back to back in Buf, row i ending at Ends[i] &^ NullEnd (64-bit: a
// chunk's results may pass 4 GiB), its NULL flag NullEnd in the same word
// (Null); BOOLEAN, INTEGER and BIGINT keep theirs in Ints; a STRUCT has
// one child per member, each as long as the struct; a LIST has one entry
// per row pointing into Elem; a MAP is a LIST of STRUCT(key, value), as in
// DuckDB. Only the types CheckType accepts.
type Column struct {
	Type     *udf.SQLType
	Nulls    []bool
	Buf      []byte
	Ends     []uint64
	Ints     []int64
	Children []*Column
	Entries  []ListEntry
	Elem     *Column

	kind    kind           // Type's shape, decided once (a row writes a dozen values)
	builder *columnBuilder // Builder's, reused from row to row
	scratch udf.Scratch    // AppendRow's rows' parser, reused from row to row
}

// kind is a Column's type as the builder needs it.
type kind uint8

const (
	kindVarchar kind = iota
	kindBoolean
	kindInteger
	kindBigint
	kindList
	kindMap
	kindStruct
)

func kindOf(t *udf.SQLType) kind {
	switch {
	case t.IsMap():
		return kindMap
	case t.IsList():
		return kindList
	case t.IsStruct():
		return kindStruct
	case t.Base == "BOOLEAN":
		return kindBoolean
	case t.Base == "INTEGER":
		return kindInteger
	case t.Base == "BIGINT":
		return kindBigint
	}
	return kindVarchar // the only other type CheckType accepts
}

// NewColumn returns an empty column of type t.
func NewColumn(t *udf.SQLType) *Column {
	c := &Column{Type: t, kind: kindOf(t)}
	for _, m := range t.Members {
		c.Children = append(c.Children, NewColumn(m.Type))
	}
	switch {
	case t.IsMap():
		c.Elem = NewColumn(&udf.SQLType{Members: []*udf.Member{{Name: "key", Type: t.Key}, {Name: "value", Type: t.Elem}}})
	case t.IsList():
		c.Elem = NewColumn(t.Elem)
	}
	return c
}

// NullEnd flags a NULL row's end in a VARCHAR column's Ends: no chunk's
// bytes come near 2^63. A row is then one append to Ends, where a second
// one to Nulls cost about 14 instructions a value (parse_url writes
// eleven VARCHARs a row).
const NullEnd = 1 << 63

// Len is the number of rows.
func (c *Column) Len() int {
	if c.kind == kindVarchar {
		return len(c.Ends)
	}
	return len(c.Nulls)
}

// Null reports whether row i is NULL.
func (c *Column) Null(i int) bool {
	if c.kind == kindVarchar {
		return c.Ends[i]&NullEnd != 0
	}
	return c.Nulls[i]
}

// Bytes is about how much memory the rows take. For a composite column
// filled through its Builder it is the builder's running count (Chunk
// asks after every row; walking a dozen child columns each time cost
// about 5 % of parse_url's row).
func (c *Column) Bytes() int {
	if c.builder != nil && c.kind >= kindList {
		return c.builder.bytes
	}
	n := len(c.Buf) + 8*len(c.Ends) + 8*len(c.Ints) + 16*len(c.Entries) + len(c.Nulls)
	for _, ch := range c.Children {
		n += ch.Bytes()
	}
	if c.Elem != nil {
		n += c.Elem.Bytes()
	}
	return n
}

// Reset empties the column, keeping its memory.
func (c *Column) Reset() {
	if c.builder != nil {
		c.builder.bytes = 0
	}
	c.Nulls, c.Buf, c.Ends, c.Ints, c.Entries = c.Nulls[:0], c.Buf[:0], c.Ends[:0], c.Ints[:0], c.Entries[:0]
	for _, ch := range c.Children {
		ch.Reset()
	}
	if c.Elem != nil {
		c.Elem.Reset()
	}
}

// AppendRow evaluates f on one row (udf's contract) and appends its
// result: a VARCHAR straight into Buf, any other type member by member
// through the column's Builder (no boxed values). A panic in the row
// propagates: Chunk, its caller, recovers it.
func (c *Column) AppendRow(f *udf.Func, args []string, nulls []bool) error {
	if c.kind == kindVarchar {
		var null bool
		var err error
		if c.Buf, null, err = f.TextUnguarded(&c.scratch, c.Buf, args, nulls); err != nil {
			return err
		}
		c.EndText(null)
		return nil
	}
	return f.BuildUnguarded(&c.scratch, c.Builder(), args, nulls)
}

// EndText ends a VARCHAR row whose bytes the caller appended to Buf.
func (c *Column) EndText(null bool) {
	if null {
		c.Buf = c.Buf[:c.start(len(c.Ends))]
	}
	c.endRow(null)
}

// endRow ends a VARCHAR row at Buf's end: its end, flagged NullEnd when
// null. A NULL row written where Buf already ends at the last row's end
// (a NULL value, not a cut result) needs no more.
func (c *Column) endRow(null bool) {
	c.Ends = append(c.Ends, end(len(c.Buf), null))
}

// end is a VARCHAR row's entry in Ends: where it ends, flagged NullEnd
// when null.
func end(at int, null bool) uint64 {
	e := uint64(at)
	if null {
		e |= NullEnd
	}
	return e
}

// start is where VARCHAR row i begins in Buf.
func (c *Column) start(i int) uint64 {
	if i == 0 {
		return 0
	}
	return c.Ends[i-1] &^ NullEnd
}

// Text returns VARCHAR row i.
func (c *Column) Text(i int) []byte { return c.Buf[c.start(i) : c.Ends[i]&^NullEnd] }

// AppendNull appends a NULL row (and NULL children, as DuckDB expects).
func (c *Column) AppendNull() {
	switch c.kind {
	case kindVarchar: // Buf ends at the last row's end: nothing to cut
		c.endRow(true)
		return
	case kindStruct:
		for _, ch := range c.Children {
			ch.AppendNull()
		}
	case kindList, kindMap:
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len())})
	default:
		c.Ints = append(c.Ints, 0)
	}
	c.Nulls = append(c.Nulls, true)
}

// Append appends one value in package sqltype's boxed form (see
// udf.Func.Value): nil, a string, a bool, an int64, []any for a LIST or a
// STRUCT (one value per member), []udf.Entry for a MAP.
func (c *Column) Append(v any) error {
	return sqltype.Write(c.Builder(), c.Type, v)
}

// Builder returns the sqltype.Builder that appends one row to c: each
// value goes to the column of its level (a STRUCT member's child, a
// LIST's or MAP's element column), so a composite row is laid out
// column-wise as it is written. A value that does not fit the type is a
// bug in the row function: the builder panics, and udf reports the panic
// as an internal error.
func (c *Column) Builder() sqltype.Builder {
	if c.builder == nil {
		c.builder = &columnBuilder{root: c}
	}
	c.builder.stack, c.builder.done = c.builder.stack[:0], false
	return c.builder
}

// columnBuilder is a Column's Builder; stack holds the composites open.
type columnBuilder struct {
	root             *Column
	stack            []colFrame
	done             bool // the root value was written
	bytes            int  // what the values written take in the columns, about
	sqltype.FieldBuf      // the Fields Record takes (sqltype.RecordBuilder)
}

type colFrame struct {
	c *Column
	n int // values received: members, elements, or keys and values
	// kids is a STRUCT's member columns and elem a LIST's element column
	// (both nil for a MAP), so that next finds a value's column without
	// a switch on the composite's kind: canonicalize_url writes a dozen
	// members a row, url_query_params a few elements (parse_url writes
	// its members in one Record).
	kids []*Column
	elem *Column
}

// next returns the column the next value goes to, and whether it is a
// MAP key (which cannot be NULL).
func (b *columnBuilder) next() (c *Column, key bool) {
	if c := b.member(); c != nil {
		return c, false
	}
	b.bytes += 16
	if len(b.stack) == 0 {
		return b.rootValue(), false
	}
	f := &b.stack[len(b.stack)-1]
	f.n++
	return b.mapOrExtra(f, f.n-1)
}

// member is next's common case, small enough to be inlined into each
// value's method: the column of a STRUCT member or a LIST element, or nil
// (the row's root value, a MAP's key or value, a member too many).
func (b *columnBuilder) member() *Column {
	if k := len(b.stack) - 1; k >= 0 {
		f := &b.stack[k]
		c := f.elem
		if f.n < len(f.kids) {
			c = f.kids[f.n]
		}
		if c != nil {
			f.n++
			b.bytes += 16 // a value's NULL flag and its end, integer or list entry
		}
		return c
	}
	return nil
}

// rootValue returns the root column for the row's one value.
func (b *columnBuilder) rootValue() *Column {
	if b.done {
		panic("bridge: a second value for one row")
	}
	b.done = true
	return b.root
}

// mapOrExtra is next's rarer case: a MAP's key or value (a LIST of
// STRUCT(key, value): one struct row per entry), or one STRUCT member
// too many.
func (b *columnBuilder) mapOrExtra(f *colFrame, n int) (c *Column, key bool) {
	if f.c.kind != kindMap {
		panic(fmt.Sprintf("bridge: more than %d STRUCT members", len(f.c.Children)))
	}
	if n%2 == 0 {
		f.c.Elem.Nulls = append(f.c.Elem.Nulls, false)
		return f.c.Elem.Children[0], true
	}
	return f.c.Elem.Children[1], false
}

// scalar returns the column of the next value, which must be of kind k
// (named base).
func (b *columnBuilder) scalar(k kind, base string) *Column {
	c := b.member()
	if c == nil {
		c, _ = b.next()
	}
	if c.kind != k {
		wrongKind(c, base)
	}
	return c
}

// wrongKind panics: a value of the SQL type base was written for c.
func wrongKind(c *Column, base string) {
	panic(fmt.Sprintf("bridge: a %s value for %s", base, c.Type.SQL()))
}

func (b *columnBuilder) Null() {
	c := b.member()
	if c == nil {
		var key bool
		if c, key = b.next(); key {
			panic("bridge: a MAP key is NULL")
		}
	}
	if c.kind == kindVarchar { // AppendNull's first case, inlined: most NULLs of a row are members like these
		c.endRow(true)
		return
	}
	c.AppendNull()
}

// String is scalar(kindVarchar, "VARCHAR") written out: scalar is too
// big to be inlined, and String writes most values of a composite row.
func (b *columnBuilder) String(s string) {
	c := b.member()
	if c == nil {
		c, _ = b.next()
	}
	if c.kind != kindVarchar {
		wrongKind(c, "VARCHAR")
	}
	b.bytes += len(s)
	c.Buf = append(c.Buf, s...)
	c.endRow(false)
}

// Split writes a LIST of VARCHAR, the pieces of s between its sep bytes
// (udf.SplitBuilder), as Begin, a String per piece and End would, with
// no frame: the pieces go straight into the element column, a
// strings.IndexByte and a copy each (url_path_segments: 991
// instructions a row of BenchmarkChunk, from 1,150 with a String per
// segment). The column's slices stay in e across the calls: copies in
// locals, live across each call, were spilled and reloaded around it
// (1,027). Tried and slower in Go: a byte loop for IndexByte, 1,018;
// the seps in one mask eight bytes a step, 1,127; the pieces copied
// eight bytes a step, 1,064; IndexByte eight bytes a step, 1,075.
func (b *columnBuilder) Split(s string, sep byte) {
	c, _ := b.next()
	if c.kind != kindList || c.Elem.kind != kindVarchar {
		panic(fmt.Sprintf("bridge: a LIST of VARCHAR for %s", c.Type.SQL()))
	}
	e := c.Elem
	at, size := len(e.Ends), len(e.Buf)
	for {
		i := strings.IndexByte(s, sep)
		if i < 0 {
			break
		}
		e.Buf = append(e.Buf, s[:i]...)
		e.endRow(false)
		s = s[i+1:]
	}
	e.Buf = append(e.Buf, s...)
	e.endRow(false)
	k := len(e.Ends) - at
	c.Entries = append(c.Entries, ListEntry{Offset: uint64(at), Length: uint64(k)})
	c.Nulls = append(c.Nulls, false)
	b.bytes += len(e.Buf) - size + 16*k
}

// Int writes an INTEGER (in range) or BIGINT.
func (b *columnBuilder) Int(n int64) {
	c, _ := b.next()
	c.appendInt(n)
}

// appendInt appends n to c, an INTEGER (n in range) or BIGINT column.
func (c *Column) appendInt(n int64) {
	switch {
	case c.kind == kindInteger && n != int64(int32(n)):
		panic(fmt.Sprintf("bridge: %d is out of INTEGER's range", n))
	case c.kind != kindInteger && c.kind != kindBigint:
		panic(fmt.Sprintf("bridge: an integer value for %s", c.Type.SQL()))
	}
	c.Ints, c.Nulls = append(c.Ints, n), append(c.Nulls, false)
}

func (b *columnBuilder) Bool(v bool) {
	b.scalar(kindBoolean, "BOOLEAN").appendBool(v)
}

// appendBool appends v to c, a BOOLEAN column.
func (c *Column) appendBool(v bool) {
	n := int64(0)
	if v {
		n = 1
	}
	c.Ints, c.Nulls = append(c.Ints, n), append(c.Nulls, false)
}

// Record writes a STRUCT of scalars in one call (sqltype.RecordBuilder):
// each member straight to its child column in one loop, where a call
// per member through the Builder interface found the column from the
// frame and counted its bytes. A VARCHAR of up to 32 bytes is copied
// without a call, written out here (as a function it cannot be inlined):
// loads and stores of its first and last 16, 8, 4 or 1 bytes, which
// overlap, never a byte outside the string or its place. append's call
// to memmove made the loop save and reload its state around each member.
// BenchmarkChunk/Chunk/parse_url, instructions a row: 2,292 member by
// member; 2,239 with Record and appends; 2,139 copying up to 16 bytes
// without a call; 2,108 with NULL in Ends (NullEnd); 2,044 up to 32
// bytes. Tried: a copy a word at a time of up to 128 bytes, 2,225 (the
// loop's registers); a first pass making room in every column, so that
// the second had no call at all, 2,302 (three capacity checks a
// member).
func (b *columnBuilder) Record(fs []sqltype.Field, _ string) {
	c, _ := b.next()
	if c.kind != kindStruct || len(fs) != len(c.Children) {
		panic(fmt.Sprintf("bridge: %d record fields for %s", len(fs), c.Type.SQL()))
	}
	c.Nulls = append(c.Nulls, false)
	n := 16 * len(fs) // each member's NULL flag and its end or integer, as member counts them
	kids := c.Children
	fs = fs[:len(kids)]
	for i, ch := range kids {
		f := &fs[i]
		if ch.kind != kindVarchar {
			ch.recordScalar(f)
			continue
		}
		if k := len(f.S); !f.Null && k > 0 {
			m := len(ch.Buf)
			if !shortCopies || k > 32 || cap(ch.Buf)-m < k {
				ch.Buf = append(ch.Buf, f.S...)
			} else {
				ch.Buf = ch.Buf[:m+k]
				d, s, k := unsafe.Pointer(&ch.Buf[m]), unsafe.Pointer(unsafe.StringData(f.S)), uintptr(k)
				switch {
				case k >= 16:
					a, b := *(*uint64)(s), *(*uint64)(unsafe.Add(s, 8))
					y, z := *(*uint64)(unsafe.Add(s, k-16)), *(*uint64)(unsafe.Add(s, k-8))
					*(*uint64)(d), *(*uint64)(unsafe.Add(d, 8)) = a, b
					*(*uint64)(unsafe.Add(d, k-16)), *(*uint64)(unsafe.Add(d, k-8)) = y, z
				case k >= 8:
					a, b := *(*uint64)(s), *(*uint64)(unsafe.Add(s, k-8))
					*(*uint64)(d), *(*uint64)(unsafe.Add(d, k-8)) = a, b
				case k >= 4:
					a, b := *(*uint32)(s), *(*uint32)(unsafe.Add(s, k-4))
					*(*uint32)(d), *(*uint32)(unsafe.Add(d, k-4)) = a, b
				default:
					a, b, e := *(*byte)(s), *(*byte)(unsafe.Add(s, k/2)), *(*byte)(unsafe.Add(s, k-1))
					*(*byte)(d), *(*byte)(unsafe.Add(d, k/2)), *(*byte)(unsafe.Add(d, k-1)) = a, b, e
				}
			}
			n += k
		}
		ch.endRow(f.Null)
	}
	b.bytes += n
}

// recordScalar writes f to c, a record's member that is not a VARCHAR.
func (c *Column) recordScalar(f *sqltype.Field) {
	switch {
	case f.Null && c.kind < kindList: // AppendNull's, for a scalar: parse_url's port is mostly NULL
		c.Ints, c.Nulls = append(c.Ints, 0), append(c.Nulls, true)
	case f.Null:
		c.AppendNull()
	case c.kind == kindBoolean:
		c.appendBool(f.N != 0)
	default:
		c.appendInt(f.N)
	}
}

func (b *columnBuilder) Begin() {
	c, _ := b.next()
	if c.kind < kindList {
		panic(fmt.Sprintf("bridge: a composite value for %s", c.Type.SQL()))
	}
	if c.Elem != nil {
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len())})
	}
	c.Nulls = append(c.Nulls, false)
	// The frame is written in place: a colFrame built aside and appended
	// was a 48-byte copy with pointers (9 % of url_path_segments' row).
	if len(b.stack) < cap(b.stack) {
		b.stack = b.stack[:len(b.stack)+1]
	} else {
		b.stack = append(b.stack, colFrame{})
	}
	f := &b.stack[len(b.stack)-1]
	f.c, f.n, f.kids, f.elem = c, 0, nil, nil
	switch c.kind {
	case kindStruct:
		f.kids = c.Children
	case kindList:
		f.elem = c.Elem
	}
}

func (b *columnBuilder) End() {
	f := &b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	switch {
	case f.c.kind == kindStruct && f.n != len(f.c.Children):
		panic(fmt.Sprintf("bridge: %d of %d STRUCT members", f.n, len(f.c.Children)))
	case f.c.kind == kindMap && f.n%2 != 0:
		panic("bridge: a MAP key without a value")
	case f.c.Elem != nil:
		e := &f.c.Entries[len(f.c.Entries)-1]
		e.Length = uint64(f.c.Elem.Len()) - e.Offset
	}
}

// shortCopies reports whether Record may copy a string by words: the CPU loads and stores
// words at any address.
const shortCopies = runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"
