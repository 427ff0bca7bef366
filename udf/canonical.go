package udf

import (
	"bytes"

	"github.com/urlnorm/urlnorm/normalize"
)

// Field describes one field of canonicalize_url's record. Type is a DuckDB
// type name; SQLite gets the same names as JSON keys.
type Field struct {
	Name string
	Type string
}

// Fields is canonicalize_url's record, in order. fragment, pagination and
// language are NULL when absent; the lists are empty.
var Fields = []Field{
	{"url", "VARCHAR"},
	{"hash", "VARCHAR"},
	{"link_type", "VARCHAR"},
	{"profile", "VARCHAR"},
	{"version", "VARCHAR"},
	{"fragment", "VARCHAR"},
	{"removed_params", "STRUCT(key VARCHAR, value VARCHAR, reason VARCHAR)[]"},
	{"pagination", "STRUCT(param VARCHAR, value VARCHAR)"},
	{"language", "VARCHAR"},
	{"alternates", "STRUCT(lang VARCHAR, url VARCHAR)[]"},
}

// Record returns the result as field name → Go value (string, nil,
// []map[string]any, map[string]any), in the shape of Fields.
func Record(r normalize.Result) map[string]any {
	// Sized for every field up front: a map literal of 8 grows on the 9th
	// key, which cost DuckDB's canonicalize_url ~9% of its time per row.
	m := make(map[string]any, len(Fields))
	m["url"], m["hash"], m["link_type"] = r.URL, r.Hash, r.LinkType
	m["profile"], m["version"] = r.Profile, r.Version
	m["fragment"], m["language"], m["pagination"] = nil, nil, nil
	if r.HasFragment {
		m["fragment"] = r.Fragment
	}
	removed := make([]any, 0, len(r.Removed))
	for _, p := range r.Removed {
		removed = append(removed, map[string]any{"key": p.Key, "value": p.Value, "reason": p.Reason})
	}
	m["removed_params"] = removed
	if r.Pagination != nil {
		m["pagination"] = map[string]any{"param": r.Pagination.Param, "value": r.Pagination.Value}
	}
	if r.Language != nil {
		m["language"] = r.Language.Preferred
	}
	alts := make([]any, 0, len(r.Alternates))
	for _, a := range r.Alternates {
		alts = append(alts, map[string]any{"lang": a.Lang, "url": a.URL})
	}
	m["alternates"] = alts
	return m
}

// JSON returns the record as a JSON object, keys in Fields order and
// nested STRUCT keys in their declared order (SQLite's canonicalize_url
// result).
func JSON(r normalize.Result) []byte {
	b, err := RecordJSON(Record(r))
	if err != nil {
		panic("udf.JSON: " + err.Error()) // Record and Fields disagree: caught by the tests
	}
	return b
}

// RecordJSON encodes a record in Record's shape as JSON the way JSON
// does: DuckDB's canonicalize_url STRUCT, scanned as map[string]any,
// becomes the text SQLite's canonicalize_url returns.
func RecordJSON(rec map[string]any) ([]byte, error) {
	var b bytes.Buffer
	err := RecordType.EncodeJSON(&b, rec)
	return b.Bytes(), err
}
