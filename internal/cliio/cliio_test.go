package cliio

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// value is one value read, with its position and error kind.
type value struct {
	v, pos, kind string
}

// readAll opens paths (stdin from the string) and collects every value.
func readAll(t *testing.T, stdin string, opt Options, paths ...string) ([]value, *Reader, error) {
	t.Helper()
	r, err := Open(paths, strings.NewReader(stdin), opt)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	got, err := collect(r)
	return got, r, err
}

// collect reads every value of r.
func collect(r *Reader) ([]value, error) {
	var got []value
	err := r.Each(func(b *Batch) bool {
		for i := range b.Len() {
			got = append(got, value{strings.Clone(b.Value(i)), b.Pos(i), normalize.KindOf(b.Err(i))})
		}
		b.Release()
		return true
	})
	return got, err
}

func file(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestText(t *testing.T) {
	long := strings.Repeat("a", 300<<10) // longer than the read buffer
	for _, c := range []struct {
		name, in string
		max      int
		want     []value
	}{
		// kasztp.txt starts with a BOM and has CRLF lines
		{"bom and crlf", "\xEF\xBB\xBFhttp://a/\r\nhttp://b/\r\n", 0,
			[]value{{"http://a/", "stdin:1", ""}, {"http://b/", "stdin:2", ""}}},
		// a BOM is only stripped at the start of the input
		{"bom inside", "x\n\xEF\xBB\xBFy\n", 0, []value{{"x", "stdin:1", ""}, {"\xEF\xBB\xBFy", "stdin:2", ""}}},
		// an empty line is a value: one output row per input line
		{"empty lines", "a\n\nb\n", 0, []value{{"a", "stdin:1", ""}, {"", "stdin:2", ""}, {"b", "stdin:3", ""}}},
		// a last line without a newline is a value
		{"no final newline", "a\nb", 0, []value{{"a", "stdin:1", ""}, {"b", "stdin:2", ""}}},
		{"empty input", "", 0, nil},
		// only "\r\n" loses its '\r'
		{"lone cr", "a\rb\n", 0, []value{{"a\rb", "stdin:1", ""}}},
		// a line longer than the buffer is kept whole
		{"long line", long + "\r\nz\n", 0, []value{{long, "stdin:1", ""}, {"z", "stdin:2", ""}}},
		// a line longer than MaxValue is cut and flagged too_long
		{"too long", long + "\nz\n", 1000, []value{{long[:1000], "stdin:1", "too_long"}, {"z", "stdin:2", ""}}},
		{"too long short", "abcdef\nz", 3, []value{{"abc", "stdin:1", "too_long"}, {"z", "stdin:2", ""}}},
	} {
		got, _, err := readAll(t, c.in, Options{MaxValue: c.max})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: %d values, want %d", c.name, len(got), len(c.want))
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: value %d = %.40q %s %s, want %.40q %s %s", c.name, i, got[i].v, got[i].pos, got[i].kind, c.want[i].v, c.want[i].pos, c.want[i].kind)
			}
		}
	}
}

// TestBatches: many lines go out in several batches, positions intact,
// and progress reaches the file size.
func TestBatches(t *testing.T) {
	var sb strings.Builder
	const n = 20000
	for range n {
		sb.WriteString("https://example.com/some/path?q=1\n")
	}
	p := file(t, "many.txt", sb.String())
	r, err := Open([]string{p}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	batches, count := 0, 0
	r.Each(func(b *Batch) bool {
		batches++
		for i := range b.Len() {
			count++
			if want := p + ":" + strconv.Itoa(count); b.Pos(i) != want {
				t.Fatalf("value %d at %s, want %s", count, b.Pos(i), want)
			}
		}
		b.Release()
		return true
	})
	done, total, values := r.Progress()
	if count != n || values != n || batches < 2 || done != total || total != int64(sb.Len()) {
		t.Errorf("%d values in %d batches, progress %d/%d values %d", count, batches, done, total, values)
	}
}

// TestStop: emit returning false stops reading.
func TestStop(t *testing.T) {
	p := file(t, "a.txt", strings.Repeat("x\n", 100000))
	r, _ := Open([]string{p, p}, nil, Options{})
	batches := 0
	err := r.Each(func(b *Batch) bool { batches++; b.Release(); return false })
	if err != nil || batches != 1 {
		t.Errorf("Each = %v after %d batches, want nil after 1", err, batches)
	}
}

func TestPickColumn(t *testing.T) {
	names := []string{"id", "URL", "Link", "link"}
	for _, c := range []struct {
		spec string
		want int
		err  string
	}{
		{"", 1, ""},     // the column named url, any case
		{"2", 1, ""},    // 1-based
		{"id", 0, ""},   // exact name
		{"Link", 2, ""}, // exact beats case-insensitive
		{"LINK", 0, `matches columns 3 ("Link") and 4 ("link") in other cases`}, // ambiguous without exact match
		{"nope", 0, "has no column"}, // unknown
		{"0", 0, "out of range"},     // 1-based
		{"5", 0, "out of range"},     // past the end
	} {
		got, err := pickColumn("f.csv", names, c.spec)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !IsUsage(err) {
				t.Errorf("--column %q: %d, %v; want a usage error with %q", c.spec, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("--column %q = %d, %v; want %d", c.spec, got, err, c.want)
		}
	}
	if _, err := pickColumn("f.csv", []string{"a", "b"}, ""); err == nil || !strings.Contains(err.Error(), `"a", "b"`) {
		t.Errorf("no url column: %v; want the list of columns", err)
	}
	// issue 16 item 8: a name two columns share exactly is an error that
	// lists them, never the first one silently; the same for "url" when
	// --column is not given.
	for _, c := range []struct {
		names []string
		spec  string
		want  string
	}{
		{[]string{"a", "id", "a"}, "a", `--column "a" names columns 1 ("a") and 3 ("a"): pick one with --column N`},
		{[]string{"a", "a", "A", "a"}, "a", `columns 1 ("a"), 2 ("a") and 4 ("a")`},
		{[]string{"URL", "id", "url"}, "", `has columns 1 ("URL") and 3 ("url") named "url"`},
	} {
		if got, err := pickColumn("f.csv", c.names, c.spec); err == nil || !IsUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q --column %q: %d, %v; want a usage error with %q", c.names, c.spec, got, err, c.want)
		}
	}
	// a repeated name is still reachable by number, and a unique exact
	// name beside a repeated one still works
	if got, err := pickColumn("f.csv", []string{"a", "b", "a"}, "3"); got != 2 || err != nil {
		t.Errorf("--column 3 with a repeated name: %d, %v", got, err)
	}
	if got, err := pickColumn("f.csv", []string{"a", "b", "a"}, "b"); got != 1 || err != nil {
		t.Errorf("--column b beside a repeated a: %d, %v", got, err)
	}
	if got, err := pickColumn("f.csv", []string{"only"}, ""); got != 0 || err != nil {
		t.Errorf("single column: %d, %v", got, err)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		name, format string
		want         string
	}{
		{"a.csv", CSV, ""}, {"a.CSV", CSV, ""}, {"a.tsv", TSV, ""}, {"a.tab", TSV, ""},
		{"a.txt", Text, ""}, {"a", Text, ""}, {"a.csv.gz", CSV, ""}, {"a.txt.gz", Text, ""},
	} {
		if got := formatOf(strings.TrimSuffix(strings.ToLower(c.name), ".gz")); got != c.format {
			t.Errorf("%s: %s, want %s", c.name, got, c.format)
		}
	}
	if _, err := Open(nil, strings.NewReader(""), Options{Format: Parquet}); err == nil || !IsUsage(err) {
		t.Errorf("Parquet on stdin: %v, want a usage error", err)
	}
	if _, err := Open([]string{"-", "-"}, strings.NewReader(""), Options{}); err == nil {
		t.Error("stdin twice: no error")
	}
	if _, err := Open([]string{"x"}, nil, Options{Format: "xml"}); err == nil || !IsUsage(err) {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := Open([]string{file(t, "a.txt", "x\n")}, nil, Options{Column: "2"}); err == nil || !IsUsage(err) {
		t.Errorf("--column on text: %v", err)
	}
	if _, err := Open([]string{file(t, "e.csv", "")}, nil, Options{}); err == nil || !strings.Contains(err.Error(), "no header") {
		t.Errorf("empty CSV: %v", err)
	}
}

// TestCSVQuoting: a syntax error on one line is a row error; an open
// quote that swallows lines is fatal, after the rows before it.
func TestCSVQuoting(t *testing.T) {
	got, _, err := readAll(t, "url\nhttp://a/\nht\"tp://b/\n\"http://c/\"\n", Options{Format: CSV})
	want := []value{{"http://a/", "stdin:2", ""}, {"", "stdin:3", "csv_syntax"}, {"http://c/", "stdin:4", ""}}
	if err != nil || len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("bare quote: %v, %v; want %v", got, err, want)
	}
	got, _, err = readAll(t, "url\nhttp://a/\n\"http://b/\nhttp://c/\n", Options{Format: CSV})
	if err == nil || !strings.Contains(err.Error(), "stdin:3") || len(got) != 1 || got[0].v != "http://a/" {
		t.Errorf("open quote: %v, %v", got, err)
	}
}

func TestAppendTSV(t *testing.T) {
	for in, want := range map[string]string{
		"plain":      "plain",
		"a\tb":       `a\tb`,
		"a\nb\r":     `a\nb\r`,
		`back\slash`: `back\\slash`,
		`"q"`:        `"q"`,
	} {
		if got := string(AppendTSV(nil, in)); got != want {
			t.Errorf("AppendTSV(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAppendCSV writes what encoding/csv's Writer writes (the rows of
// urlnorm sql and of the file commands come out the same), and reads back.
func TestAppendCSV(t *testing.T) {
	fields := []string{"", "plain", "a,b", `say "hi"`, "two\nlines", " lead", "\tlead", "\vlead", "\u00a0nbsp", "\u0085nel",
		"trail ", "\r", `\.`, `\.x`, "ünï", "\xff\xfe"}
	var line []byte
	for i, f := range fields {
		if i > 0 {
			line = append(line, ',')
		}
		line = AppendCSV(line, f)
	}
	var want bytes.Buffer
	cw := csv.NewWriter(&want)
	cw.Write(fields)
	cw.Flush()
	if got := string(line) + "\n"; got != want.String() {
		t.Errorf("AppendCSV wrote\n%q\nencoding/csv\n%q", got, want.String())
	}
	rec, err := csv.NewReader(strings.NewReader(string(line) + "\n")).Read()
	if err != nil || strings.Join(rec, "|") != strings.Join(fields, "|") {
		t.Errorf("read back %q as %q, %v", line, rec, err)
	}
}

// TestAppendJSON writes what encoding/json writes without HTML escaping,
// byte for byte: every single byte, and strings with invalid UTF-8.
func TestAppendJSON(t *testing.T) {
	inputs := []string{"", "plain", `q"uote\`, "ctl\x00\x01\x1f\x7f", "\t\n\r\b\f", "ünï 日本", "bad \xff\xfe utf8", "\u2028\u2029", "<&>", "\xe6\x97"}
	for c := range 256 {
		inputs = append(inputs, string([]byte{byte(c)}))
	}
	for _, s := range inputs {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if got := string(AppendJSON(nil, s)); got != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("AppendJSON(%q) = %s, encoding/json %s", s, got, want.String())
		}
	}
}

// TestOpenErrors: a broken .gz file and a missing file name the file.
func TestOpenErrors(t *testing.T) {
	p := file(t, "x.txt.gz", "not gzip")
	_, _, err := readAll(t, "", Options{}, p)
	if err == nil || !strings.Contains(err.Error(), "x.txt.gz") {
		t.Errorf("bad gzip: %v", err)
	}
	var pe *os.PathError
	_, _, err = readAll(t, "", Options{}, filepath.Join(t.TempDir(), "missing.txt"))
	if !errors.As(err, &pe) {
		t.Errorf("missing file: %v", err)
	}
}

// TestShortRead (issue 16 item 7): a file that shrinks while it is read
// ends with a *ShortReadError naming it and both sizes, after the values
// read; a stream given with its size is checked the same way.
func TestShortRead(t *testing.T) {
	content := strings.Repeat("https://example.com/some/path?q=1\n", 100000) // 3.4 MB, many batches
	for _, name := range []string{"urls.txt", "urls.tsv"} {
		p := file(t, name, "url\n"+content)
		r, err := Open([]string{p}, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		values, cut := 0, false
		err = r.Each(func(b *Batch) bool {
			values += b.Len()
			b.Release()
			if !cut {
				cut = true
				if err := os.Truncate(p, 100); err != nil {
					t.Fatal(err)
				}
			}
			return true
		})
		r.Close()
		var se *ShortReadError
		if !errors.As(err, &se) || se.Size != int64(len(content)+4) || se.Read >= se.Size || se.Read == 0 ||
			!strings.HasPrefix(err.Error(), p+":") || !strings.Contains(err.Error(), "were read") {
			t.Errorf("%s: Each = %v after %d values; want a short read of %d bytes", name, err, values, len(content)+4)
		}
		// the values are the whole lines before the cut, not a cut one
		whole := int(se.Read-4) / 34
		if name == "urls.txt" {
			whole++ // "url" is a value too
		}
		if values != whole {
			t.Errorf("%s: %d values emitted, %d whole lines read", name, values, whole)
		}
	}
	// a stream that ends before its declared size
	r, err := OpenStream("part.txt", strings.NewReader("a\nb\n"), 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = r.Each(func(b *Batch) bool { n += b.Len(); b.Release(); return true })
	var se *ShortReadError
	if !errors.As(err, &se) || se.Size != 10 || se.Read != 4 || n != 2 {
		t.Errorf("short stream: %v, %d values", err, n)
	}
	// no false alarm: a whole file, stdin read from the middle of a file
	p := file(t, "whole.txt", "skip\na\nb\n")
	if _, _, err := readAll(t, "", Options{}, p); err != nil {
		t.Errorf("whole file: %v", err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.Seek(5, io.SeekStart) // "(read one line; urlnorm normalize) < file"
	r, err = Open(nil, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = r.Each(func(b *Batch) bool {
		for i := range b.Len() {
			got = append(got, b.Value(i))
		}
		return true
	})
	if err != nil || strings.Join(got, ",") != "a,b" {
		t.Errorf("stdin from offset 5: %q, %v", got, err)
	}
}

// TestOpenStream: a stream is read with a file's rules, its format and
// compression from its name.
func TestOpenStream(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\xEF\xBB\xBFid,url\r\n1,http://a/\r\n\r\n2,\"http://b/,c\"\r\n"))
	zw.Close()
	r, err := OpenStream("gs://bucket/links.csv.gz", &gz, int64(gz.Len()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(r)
	want := []value{{"http://a/", "gs://bucket/links.csv.gz:2", ""}, {"http://b/,c", "gs://bucket/links.csv.gz:4", ""}}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	if _, err := OpenStream("x.parquet", strings.NewReader(""), -1, Options{}); err == nil || !IsUsage(err) {
		t.Errorf("Parquet stream: %v, want a usage error", err)
	}
	if _, err := OpenStream("x.txt", strings.NewReader(""), -1, Options{Column: "url"}); err == nil || !IsUsage(err) {
		t.Errorf("--column on a text stream: %v, want a usage error", err)
	}
}

func TestDisplayWidth(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"abc", 3},               // ASCII
		{"日本語", 6},               // CJK ideographs: wide (UAX #11 W)
		{"한국", 4},                // Hangul syllables: wide
		{"ｱｲｳ", 3},               // halfwidth katakana: narrow (H)
		{"Ａ１", 4},                // fullwidth forms (F)
		{"e\u0301", 1},           // combining acute accent (Mn): no column
		{"a\u200db", 2},          // zero width joiner (Cf): no column
		{"soft\u00adhyphen", 11}, // soft hyphen: shown as a hyphen
		{"😀", 2},                 // emoji presentation: wide
		{"é", 1},                 // precomposed Latin: one column
		{"\xff", 1},              // invalid UTF-8: one U+FFFD
		{"Ωmega", 5},             // ambiguous-width Greek: narrow outside East Asian contexts
	} {
		if got := DisplayWidth(c.s); got != c.want {
			t.Errorf("DisplayWidth(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}
