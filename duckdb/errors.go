package duckdb

import (
	"errors"
	"strings"
	"sync"

	"github.com/urlnorm/urlnorm/udf"
)

// FuncError returns the error a urlnorm function raised inside err, an
// error from a query on a database with the functions registered, or err
// itself when it is not one.
//
// A function's error reaches Go as DuckDB's own *duckdb.Error, whose
// message reads
//
//	Invalid Input Error: normalize_url('nope'): missing_scheme (…)
//
// (through duckdb-go's ScalarFunc API, the fallback Register takes on a
// duckdb-go version it does not know, DuckDB's prefix is followed by
// "database/sql/driver: API error: "). FuncError gives back the
// *udf.Error itself: its message is udf's (normalize_url('nope'):
// missing_scheme (…), what the CLI and the extensions show), errors.As
// finds it, and errors.Is(err, normalize.ErrInvalid) and the other
// classes work through it:
//
//	if _, err := db.Exec(q); err != nil {
//		err = duckdb.FuncError(err)
//		var fe *udf.Error
//		if errors.As(err, &fe) { … fe.Kind … }
//	}
//
// It finds the errors this process raised recently (the last 1024
// distinct messages); for an older one it returns an error with udf's
// message that wraps err.
func FuncError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, driverPrefix); ok {
		msg = rest
	} else if _, rest, ok := strings.Cut(msg, " Error: "); ok {
		msg = rest // "Invalid Input Error: …", or "Binder Error: …" when DuckDB binds the query
	} else {
		return err
	}
	if e := raised.find(msg); e != nil {
		return e
	}
	if !strings.HasPrefix(err.Error(), "Invalid Input Error: ") || !isFuncMessage(msg) {
		return err
	}
	return &funcError{msg: msg, err: err}
}

// driverPrefix is what duckdb-go puts before a scalar function's error.
const driverPrefix = "database/sql/driver: API error: "

// isFuncMessage reports whether msg starts as a urlnorm function's error
// does: the function's name and its arguments in parentheses.
func isFuncMessage(msg string) bool {
	name, _, ok := strings.Cut(msg, "(")
	return ok && len(udf.Lookup(name)) > 0
}

// funcError is a function's error whose *udf.Error is no longer known.
type funcError struct {
	msg string
	err error
}

func (e *funcError) Error() string { return e.msg }
func (e *funcError) Unwrap() error { return e.err }

// raised remembers the errors functions returned to DuckDB, by message.
var raised = &errorLog{byMsg: map[string]*udf.Error{}}

type errorLog struct {
	mu    sync.Mutex
	byMsg map[string]*udf.Error
	order []string // oldest first
}

const errorLogSize = 1024

// note remembers err if it is a *udf.Error, and returns it.
func (l *errorLog) note(err error) error {
	var e *udf.Error
	if !errors.As(err, &e) {
		return err
	}
	msg := e.Error()
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byMsg[msg]; !ok {
		if len(l.order) == errorLogSize {
			delete(l.byMsg, l.order[0])
			l.order = l.order[1:]
		}
		l.order = append(l.order, msg)
	}
	l.byMsg[msg] = e
	return err
}

func (l *errorLog) find(msg string) *udf.Error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.byMsg[msg]
}
