package udf

import (
	"bytes"
	"encoding/json"

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
	m := map[string]any{
		"url":        r.URL,
		"hash":       r.Hash,
		"link_type":  r.LinkType,
		"profile":    r.Profile,
		"version":    r.Version,
		"fragment":   nil,
		"language":   nil,
		"pagination": nil,
	}
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

// JSON returns the record as a JSON object with keys in Fields order
// (SQLite's canonicalize_url result).
func JSON(r normalize.Result) []byte {
	rec := Record(r)
	var b bytes.Buffer
	// URLs are full of '&': keep them readable instead of \u0026.
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, f := range Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		enc.Encode(f.Name)
		b.Truncate(b.Len() - 1) // Encode ends each value with a newline
		b.WriteByte(':')
		enc.Encode(rec[f.Name])
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes()
}
