package udf

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/urlnorm/urlnorm/internal/sqltype"
	"github.com/urlnorm/urlnorm/normalize"
)

// Builder receives a composite result member by member (see package
// sqltype): each host provides one that writes its own form.
type Builder = sqltype.Builder

// BuildFunc computes a LIST, STRUCT or MAP result by writing it to b;
// null reports NULL, and then nothing was written. It returns any error
// before writing anything (a try_ twin turns the error into NULL).
type BuildFunc func(b Builder, args []string) (null bool, err error)

// NewBuild declares a function with a LIST, STRUCT or MAP result outside
// Funcs, written to the host's Builder, with the same row contract.
func NewBuild(name string, args []Arg, returns *SQLType, fn BuildFunc) *Func {
	return &Func{Name: name, Args: args, Returns: returns,
		build: func(_ *Scratch, b Builder, args []string) (bool, error) { return fn(b, args) }}
}

// Text evaluates f on one row and appends the result to dst as text: a
// VARCHAR as it is, a BOOLEAN as true or false, a number in decimal, a
// LIST, STRUCT or MAP as JSON (members in declared order, '&' unescaped):
// the form of hosts without composite types, such as SQLite. args are the
// argument values, nulls[i] reports a NULL argument (nil: none is NULL).
// null reports a NULL result; err is ready to show to the SQL user. Text
// does not allocate when f's implementation does not (normalize_url).
func (f *Func) Text(dst []byte, args []string, nulls []bool) (out []byte, null bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, null, err = dst, false, f.panicError(r, args, nulls)
		}
	}()
	return f.TextUnguarded(nil, dst, args, nulls)
}

// TextUnguarded is Text without Text's recover, for a host that evaluates
// a chunk of rows in a loop and recovers once around it (the DuckDB
// extension: a deferred recover per row costs about 5 ns, 8 % of the
// bridge's normalize_url row). A panic in f's implementation propagates;
// the host turns it into the error Text would have returned with
// f.RowPanicError(r, args, nulls), for the row it was evaluating. s is the
// host's Scratch for its run of rows (nil: none; see Scratch).
func (f *Func) TextUnguarded(s *Scratch, dst []byte, args []string, nulls []bool) (out []byte, null bool, err error) {
	if anyNull(nulls) {
		err = f.nullRow(args, nulls)
		return dst, err == nil, err
	}
	switch {
	case f.text != nil:
		out, null, err = f.text(s, dst, args)
	case f.integer != nil:
		var n int64
		if n, null, err = f.integer(s, args); err == nil && !null {
			out = f.appendInt(dst, n)
		}
	case f.build != nil:
		// SQLite's JSON, written member by member (sqltype.JSON)
		j := jsonBuilders.Get().(*sqltype.JSON)
		j.Reset(f.Returns, dst)
		null, err = f.build(s, j, args)
		out = j.Buf
		j.Buf = nil
		jsonBuilders.Put(j)
	default:
		var v any
		if v, err = f.value(args); err == nil {
			null = v == nil
			var encErr error
			if out, encErr = appendText(dst, f.Returns, v); encErr != nil {
				// the value and the declared type disagree: a bug, which
				// try_ must not hide
				return dst, false, f.panicError(encErr, args, nulls)
			}
		}
	}
	if err != nil {
		null, err = f.reject(args, err)
		return dst, null, err
	}
	if null {
		return dst, true, nil
	}
	return out, false, nil
}

// Value evaluates f on one row (see Text) and returns the result in
// sqltype's boxed value form of f.Returns: nil for NULL, a string for a
// VARCHAR, a bool, an int64, []any for a LIST or a STRUCT (one value per
// member), []Entry for a MAP. Build writes the same value without boxing.
func (f *Func) Value(args []string, nulls []bool) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, f.panicError(r, args, nulls)
		}
	}()
	if anyNull(nulls) {
		return nil, f.nullRow(args, nulls)
	}
	switch {
	case f.text != nil:
		var out []byte
		var null bool
		if out, null, err = f.text(nil, nil, args); err == nil && !null {
			v = string(out)
		}
	case f.build != nil:
		x := boxedBuilders.Get().(*sqltype.Boxed)
		x.Reset(f.Returns)
		var null bool
		if null, err = f.build(nil, x, args); err == nil && !null {
			v = x.Value()
		}
		x.Reset(nil) // drop the value, keep the arena
		boxedBuilders.Put(x)
	case f.integer != nil:
		var n int64
		var null bool
		if n, null, err = f.integer(nil, args); err == nil && !null {
			v = f.box(n)
		}
	default:
		v, err = f.value(args)
	}
	if err != nil {
		_, err = f.reject(args, err)
		return nil, err
	}
	return v, nil
}

// Build evaluates f on one row (see Text) and writes the result to b, a
// builder of f.Returns: b.Null() for NULL. Hosts with columnar composite
// values (the DuckDB extension) use it to write a LIST, STRUCT or MAP
// without boxing its members. On an error b may hold part of the row:
// the host aborts the statement.
func (f *Func) Build(b Builder, args []string, nulls []bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = f.panicError(r, args, nulls)
		}
	}()
	return f.BuildUnguarded(nil, b, args, nulls)
}

// BuildUnguarded is Build without Build's recover, as TextUnguarded is
// Text without Text's: a panic in f's implementation or in b propagates
// to the host, which reports it with f.RowPanicError.
func (f *Func) BuildUnguarded(s *Scratch, b Builder, args []string, nulls []bool) (err error) {
	if anyNull(nulls) {
		if err = f.nullRow(args, nulls); err == nil {
			b.Null()
		}
		return err
	}
	var null bool
	switch {
	case f.build != nil:
		null, err = f.build(s, b, args)
	case f.text != nil:
		// b only borrows the string: the bytes stay in a reused buffer
		buf := textBufs.Get().(*[]byte)
		var out []byte
		if out, null, err = f.text(s, (*buf)[:0], args); err == nil && !null {
			b.String(unsafe.String(unsafe.SliceData(out), len(out)))
		}
		*buf = out[:0]
		textBufs.Put(buf)
	case f.integer != nil:
		var n int64
		if n, null, err = f.integer(s, args); err == nil && !null {
			if f.Returns.Base == "BOOLEAN" {
				b.Bool(n != 0)
			} else {
				b.Int(n)
			}
		}
	default:
		var v any
		if v, err = f.value(args); err == nil {
			if wErr := sqltype.Write(b, f.Returns, v); wErr != nil {
				// the value and the declared type disagree: a bug, which
				// try_ must not hide
				return f.panicError(wErr, args, nulls)
			}
			return nil
		}
	}
	if err != nil {
		if null, err = f.reject(args, err); err != nil {
			return err
		}
	}
	if null {
		b.Null()
	}
	return nil
}

// Builders reused across rows: a JSON builder's stack, a Boxed builder's
// string arena, the bytes of a text result written to a Builder.
var (
	jsonBuilders  = sync.Pool{New: func() any { return new(sqltype.JSON) }}
	boxedBuilders = sync.Pool{New: func() any { return new(sqltype.Boxed) }}
	textBufs      = sync.Pool{New: func() any { return new([]byte) }}
)

// box returns an integer result in the boxed value form: a bool for a
// BOOLEAN, else an int64.
func (f *Func) box(n int64) any {
	if f.Returns.Base == "BOOLEAN" {
		return n != 0
	}
	return n
}

// appendInt appends an integer result in Text's form.
func (f *Func) appendInt(dst []byte, n int64) []byte {
	if f.Returns.Base == "BOOLEAN" {
		return strconv.AppendBool(dst, n != 0)
	}
	return strconv.AppendInt(dst, n, 10)
}

// IntResult reports whether a host with only text and integers (SQLite)
// returns f's result as an integer (Int): a BOOLEAN as 0 or 1, an INTEGER
// or BIGINT. Every other result is text there (Text).
func (f *Func) IntResult() bool {
	switch f.Returns.Base {
	case "BOOLEAN", "INTEGER", "BIGINT":
		return true
	}
	return false
}

// Int evaluates a function whose IntResult is true on one row (see Text).
// It does not allocate when f's implementation does not (canonical_key).
func (f *Func) Int(args []string, nulls []bool) (n int64, null bool, err error) {
	if f.integer != nil {
		return f.intRow(args, nulls)
	}
	v, err := f.Value(args, nulls)
	if err != nil || v == nil {
		return 0, err == nil, err
	}
	n, ok := sqltype.Int(v)
	if !ok {
		return 0, false, f.panicError(fmt.Sprintf("%T is not an integer result", v), args, nulls)
	}
	return n, false, nil
}

// intRow is Int's row contract for an IntFunc (see Text).
func (f *Func) intRow(args []string, nulls []bool) (n int64, null bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, null, err = 0, false, f.panicError(r, args, nulls)
		}
	}()
	return f.IntUnguarded(nil, args, nulls)
}

// IntUnguarded is Int without Int's recover, as TextUnguarded is Text
// without Text's (a panic in f's implementation propagates to the host,
// which reports it with f.RowPanicError), with the host's Scratch s for its
// run of rows (nil: none; see Scratch). A function without an integer
// implementation takes Int's boxed path, recover included.
func (f *Func) IntUnguarded(s *Scratch, args []string, nulls []bool) (n int64, null bool, err error) {
	if f.integer == nil {
		return f.Int(args, nulls)
	}
	if anyNull(nulls) {
		err = f.nullRow(args, nulls)
		return 0, err == nil, err
	}
	if n, null, err = f.integer(s, args); err != nil {
		null, err = f.reject(args, err)
		return 0, null, err
	}
	return n, null, nil
}

func anyNull(nulls []bool) bool {
	for _, n := range nulls {
		if n {
			return true
		}
	}
	return false
}

// nullRow is a row with a NULL argument: NULL, unless a non-NULL argument
// names an unknown profile, which raises as it does on every row.
func (f *Func) nullRow(args []string, nulls []bool) error {
	for i, a := range f.Args {
		if a.checked() && !nulls[i] {
			if err := f.CheckArg(i, args[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckArg returns the error every call raises whose argument i is v, or
// nil: an unknown profile name, when argument i names a profile, or a
// name its Check rejects. Adapters may call it with a constant argument
// when the engine plans a query (DuckDB's binder), so that a misspelt
// profile fails before any row is read; the row functions call it on rows
// with NULL arguments.
func (f *Func) CheckArg(i int, v string) error {
	a := f.Args[i]
	var err error
	switch {
	case a.Profile:
		_, err = normalize.Lookup(v)
	case a.Check != nil:
		err = a.Check(v)
	}
	if err != nil {
		call := f.ArgNames()
		call[i] = quoteArgs([]string{v}, nil)
		return f.newError(strings.Join(call, ", "), err)
	}
	return nil
}

// RaisesOnNull reports whether f can raise on a row with a NULL argument
// (it takes a profile and another argument): engines that skip such rows
// by default (DuckDB) must call f on them.
func (f *Func) RaisesOnNull() bool {
	for _, a := range f.Args {
		if a.checked() && len(f.Args) > 1 {
			return true
		}
	}
	return false
}

// checked reports whether the argument's value is checked on every row
// (CheckArg).
func (a Arg) checked() bool { return a.Profile || a.Check != nil }

// ArgTypeError is the error of a call whose argument i is not text (an
// engine that passes numbers as they are, like SQLite): sqlType names the
// engine's type ("INTEGER", "REAL"), v is the value.
func (f *Func) ArgTypeError(i int, sqlType string, v any) error {
	return &Error{Func: f.Name, Kind: "invalid_argument",
		msg: fmt.Sprintf("%s: argument %s must be TEXT, got %s (%v)", f.Name, f.Args[i].Name, sqlType, v)}
}

// appendText appends a value of type t in Text's form.
func appendText(dst []byte, t *SQLType, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return dst, nil
	case string:
		return append(dst, v...), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	}
	b := bytes.NewBuffer(dst)
	err := t.EncodeJSON(b, v)
	return b.Bytes(), err
}

// Error is the error a SQL function raises.
type Error struct {
	Func string // SQL function name
	Kind string // normalize kind code ("invalid_host", "unknown_profile", "internal" …)
	msg  string
	err  error
}

func (e *Error) Error() string { return e.msg }
func (e *Error) Unwrap() error { return e.err }

// reject decides a row the implementation rejected: NULL in a try_ twin
// (bad data), else the SQL error.
func (f *Func) reject(args []string, err error) (null bool, _ error) {
	if f.Try && !errors.Is(err, normalize.ErrConfig) {
		return true, nil
	}
	return false, f.newError(quoteArgs(args, nil), err)
}

// newError builds the error of a call whose arguments read args.
func (f *Func) newError(args string, err error) error {
	kind := normalize.KindOf(err)
	var why string
	var ne *normalize.Error
	if errors.As(err, &ne) {
		why = ne.Kind.Code
		if ne.Reason != "" {
			why += ": " + ne.Reason
		}
		if ne.Err != nil {
			why += ": " + ne.Err.Error()
		}
	} else {
		why = err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s(%s): %s", f.Name, args, why)
	if !f.Try && !f.NoTry && !errors.Is(err, normalize.ErrConfig) {
		fmt.Fprintf(&b, " (use try_%s to get NULL instead)", f.Name)
	}
	return &Error{Func: f.Name, Kind: kind, msg: b.String(), err: err}
}

// RowPanicError is the error of a row whose evaluation panicked with r
// (args and nulls as given to TextUnguarded): the one Text returns.
func (f *Func) RowPanicError(r any, args []string, nulls []bool) error {
	return f.panicError(r, args, nulls)
}

func (f *Func) panicError(r any, args []string, nulls []bool) error {
	return internalError(f.Name, f.Name+"("+quoteArgs(args, nulls)+")", r)
}

// PanicError is the error a host reports for a panic it recovers in its
// own glue, outside a row (fn is the SQL function, or the host's entry
// point): it reads like a panic udf recovers in a row.
func PanicError(fn string, r any) error {
	return internalError(fn, fn, r)
}

func internalError(fn, call string, r any) error {
	return &Error{Func: fn, Kind: "internal",
		msg: fmt.Sprintf("%s: internal error: %v (please report this query)", call, r)}
}

// quoteArgs renders argument values for a message, as SQL literals
// (NULL where nulls says so).
func quoteArgs(args []string, nulls []bool) string {
	q := make([]string, len(args))
	for i, a := range args {
		if i < len(nulls) && nulls[i] {
			q[i] = "NULL"
			continue
		}
		// Quote gives "text" or, truncated, "text"…(N bytes): keep the
		// suffix outside the SQL quotes.
		s := normalize.Quote(a)
		end := strings.LastIndexByte(s, '"')
		q[i] = "'" + strings.ReplaceAll(s[1:end], `\"`, `"`) + "'" + s[end+1:]
	}
	return strings.Join(q, ", ")
}

// check reports a table row that breaks the contract.
func (f *Func) check() error {
	switch {
	case f.Name == "" || len(f.Args) > MaxArgs:
		return fmt.Errorf("%q: a name and at most %d arguments", f.Name, MaxArgs)
	case countTrue(f.text != nil, f.value != nil, f.build != nil, f.integer != nil) != 1:
		return fmt.Errorf("%s: want exactly one implementation", f.Name)
	case f.integer != nil && !f.IntResult():
		return fmt.Errorf("%s: an integer implementation returns BOOLEAN, INTEGER or BIGINT, not %s", f.Name, f.Returns.SQL())
	case f.text != nil && f.Returns.Base != "VARCHAR":
		return fmt.Errorf("%s: a text implementation returns VARCHAR, not %s", f.Name, f.Returns.SQL())
	case f.build != nil && !f.Returns.IsComposite():
		return fmt.Errorf("%s: a build implementation returns a LIST, STRUCT or MAP, not %s", f.Name, f.Returns.SQL())
	}
	return nil
}

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
