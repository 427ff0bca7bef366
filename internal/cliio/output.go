package cliio

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Output formats of the row commands.
const (
	OutText  = "text"  // the result only, one line per input
	OutTSV   = "tsv"   // header row, then input, result, error kind
	OutCSV   = "csv"   // the same as CSV
	OutJSONL = "jsonl" // one JSON object per input
)

// OutFormats lists the output formats.
var OutFormats = []string{OutText, OutTSV, OutCSV, OutJSONL}

// AppendTSV appends s as a TSV field. TAB, LF, CR and '\' are escaped as
// \t, \n, \r and \\ (the "linear TSV" convention), so every row is one
// line and every field is unambiguous.
func AppendTSV(dst []byte, s string) []byte {
	if !strings.ContainsAny(s, "\t\n\r\\") {
		return append(dst, s...)
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\\':
			dst = append(dst, '\\', '\\')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// AppendCSV appends s as a CSV field, quoted when encoding/csv's Writer
// would quote it (so the output reads back with encoding/csv or DuckDB).
func AppendCSV(dst []byte, s string) []byte {
	if !csvNeedsQuotes(s) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, '"')
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, '"')
}

// csvNeedsQuotes is encoding/csv's rule: a comma, quote, CR or LF
// anywhere, a leading space (unicode.IsSpace: also \v, \f, U+0085, U+00A0
// …), or `\.` alone (which PostgreSQL reads as the end of data).
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` || strings.ContainsAny(s, ",\"\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

const hexDigits = "0123456789abcdef"

// AppendJSON appends s as a JSON string, byte for byte as encoding/json
// writes it without HTML escaping: control characters escaped, invalid
// UTF-8 bytes as U+FFFD (JSON text cannot carry them), U+2028 and U+2029
// escaped.
func AppendJSON(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but break JavaScript parsers.
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&15])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
