package bridge

import (
	"fmt"

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
// flag per row at every level. A VARCHAR column keeps its values back to
// back in Buf, row i ending at Ends[i] (64-bit: a chunk's results may pass
// 4 GiB); BOOLEAN, INTEGER and BIGINT keep theirs in Ints; a STRUCT has
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
}

// NewColumn returns an empty column of type t.
func NewColumn(t *udf.SQLType) *Column {
	c := &Column{Type: t}
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

// Len is the number of rows.
func (c *Column) Len() int { return len(c.Nulls) }

// Bytes is about how much memory the rows take.
func (c *Column) Bytes() int {
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
	c.Nulls, c.Buf, c.Ends, c.Ints, c.Entries = c.Nulls[:0], c.Buf[:0], c.Ends[:0], c.Ints[:0], c.Entries[:0]
	for _, ch := range c.Children {
		ch.Reset()
	}
	if c.Elem != nil {
		c.Elem.Reset()
	}
}

// AppendRow evaluates f on one row (udf's contract) and appends its
// result: a VARCHAR straight into Buf, any other type through its value.
func (c *Column) AppendRow(f *udf.Func, args []string, nulls []bool) error {
	if c.Type.Base == "VARCHAR" {
		var null bool
		var err error
		if c.Buf, null, err = f.Text(c.Buf, args, nulls); err != nil {
			return err
		}
		c.EndText(null)
		return nil
	}
	v, err := f.Value(args, nulls)
	if err != nil {
		return err
	}
	if err := c.Append(v); err != nil {
		return udf.PanicError(f.Name, err) // udf's value and its declared type disagree
	}
	return nil
}

// EndText ends a VARCHAR row whose bytes the caller appended to Buf.
func (c *Column) EndText(null bool) {
	if null {
		c.Buf = c.Buf[:c.start(len(c.Ends))]
	}
	c.Ends = append(c.Ends, uint64(len(c.Buf)))
	c.Nulls = append(c.Nulls, null)
}

// start is where VARCHAR row i begins in Buf.
func (c *Column) start(i int) uint64 {
	if i == 0 {
		return 0
	}
	return c.Ends[i-1]
}

// Text returns VARCHAR row i.
func (c *Column) Text(i int) []byte { return c.Buf[c.start(i):c.Ends[i]] }

// AppendNull appends a NULL row (and NULL children, as DuckDB expects).
func (c *Column) AppendNull() {
	switch {
	case c.Type.IsStruct():
		for _, ch := range c.Children {
			ch.AppendNull()
		}
	case c.Elem != nil:
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len())})
	case c.Type.Base == "VARCHAR":
		c.EndText(true)
		return
	default:
		c.Ints = append(c.Ints, 0)
	}
	c.Nulls = append(c.Nulls, true)
}

// Append appends one value in package sqltype's form (see udf.Func.Value):
// nil, a string, a bool, an int64, []any for a LIST or a STRUCT (one value
// per member), []udf.Entry for a MAP.
func (c *Column) Append(v any) error {
	if v == nil {
		c.AppendNull()
		return nil
	}
	t := c.Type
	switch {
	case t.IsStruct():
		s, ok := v.([]any)
		if !ok || len(s) != len(t.Members) {
			return fmt.Errorf("want %d STRUCT member values, got %T", len(t.Members), v)
		}
		for i, mem := range t.Members {
			if err := c.Children[i].Append(s[i]); err != nil {
				return fmt.Errorf("%s: %w", mem.Name, err)
			}
		}
	case t.IsMap():
		es, ok := v.([]udf.Entry)
		if !ok {
			return fmt.Errorf("want []Entry for a MAP, got %T", v)
		}
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len()), Length: uint64(len(es))})
		for _, e := range es {
			if e.Key == nil {
				return fmt.Errorf("a MAP key is NULL")
			}
			if err := c.Elem.Append([]any{e.Key, e.Value}); err != nil {
				return err
			}
		}
	case t.IsList():
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want []any for a LIST, got %T", v)
		}
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len()), Length: uint64(len(l))})
		for _, e := range l {
			if err := c.Elem.Append(e); err != nil {
				return err
			}
		}
	case t.Base == "VARCHAR":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string for VARCHAR, got %T", v)
		}
		c.Buf = append(c.Buf, s...)
		c.EndText(false)
		return nil
	default:
		n, ok := intValue(t.Base, v)
		if !ok {
			return fmt.Errorf("%T is not a %s value", v, t.Base)
		}
		c.Ints = append(c.Ints, n)
	}
	c.Nulls = append(c.Nulls, false)
	return nil
}

// intValue is a BOOLEAN (0/1), INTEGER (in range) or BIGINT value.
func intValue(base string, v any) (int64, bool) {
	switch base {
	case "BOOLEAN":
		b, ok := v.(bool)
		if b {
			return 1, ok
		}
		return 0, ok
	case "INTEGER":
		n, ok := v.(int64)
		return n, ok && n == int64(int32(n))
	case "BIGINT":
		n, ok := v.(int64)
		return n, ok
	}
	return 0, false
}
