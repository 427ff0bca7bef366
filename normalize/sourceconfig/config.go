// Package sourceconfig reads the files that say what canonical means: a
// profile (JSON or YAML), or the configuration files the source systems'
// users already have — curious-now overrides JSON, Edge Gateway
// tracking_params YAML, clara host map and language JSON — applied on top
// of a base profile. Its output is a normalize.Profile; normalize.New
// compiles it.
//
// Every loader takes a base profile and returns a new profile, whose
// version is the base's with the configuration's fingerprint as build
// metadata, and every error is a normalize.ErrConfig naming the file and
// the field. Load tells the kind of each file by its content, for callers
// that take files or text from users (the CLI, SQL, pipelines).
package sourceconfig

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/urlnorm/urlnorm/normalize"
)

// ConfigFile is one configuration file: Name names it in error messages
// (its path, say) and Data is its content.
type ConfigFile struct {
	Name string
	Data []byte
}

// ReadConfigFiles reads configuration files from disk.
func ReadConfigFiles(paths ...string) ([]ConfigFile, error) {
	files := make([]ConfigFile, 0, len(paths))
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, &normalize.Error{Op: "load config", Input: path, Kind: normalize.KindConfig, Err: err}
		}
		files = append(files, ConfigFile{Name: path, Data: data})
	}
	return files, nil
}

// configVersion returns base's version with a fingerprint of the
// configuration as build metadata ("1.0.0+config.1a2b3c4d"): a profile
// extended by a config file never claims the built-in's version, and two
// different configurations never share one. The fingerprint depends on the
// base version and the files' contents, not on their names.
func configVersion(base string, files []ConfigFile) string {
	h := sha256.New()
	h.Write([]byte(base))
	for _, f := range files {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f.Data)))
		h.Write(n[:])
		h.Write(f.Data)
	}
	v, _, _ := strings.Cut(base, "+")
	return v + "+config." + hex.EncodeToString(h.Sum(nil)[:4])
}

// applyConfig returns a copy of base changed by load, file by file, with
// the configuration's version. Loaders never modify their base.
func applyConfig(base normalize.Profile, files []ConfigFile, load func(*normalize.Profile, []ConfigFile) error) (normalize.Profile, error) {
	p, err := cloneProfile(base)
	if err != nil {
		return normalize.Profile{}, err
	}
	if err := load(&p, files); err != nil {
		return normalize.Profile{}, err
	}
	p.Version = configVersion(base.Version, files)
	if err := p.Validate(); err != nil {
		return normalize.Profile{}, err
	}
	return p, nil
}

// eachFile loads the files one after the other.
func eachFile(load func(*normalize.Profile, ConfigFile) error) func(*normalize.Profile, []ConfigFile) error {
	return func(p *normalize.Profile, files []ConfigFile) error {
		for _, f := range files {
			if err := load(p, f); err != nil {
				return err
			}
		}
		return nil
	}
}

// cloneProfile returns a deep copy of p.
func cloneProfile(p normalize.Profile) (normalize.Profile, error) {
	var q normalize.Profile
	if err := json.Unmarshal(p.JSON(), &q); err != nil {
		return normalize.Profile{}, err
	}
	return q, nil
}

// cfg reads one configuration file. Objects are decoded field by field so
// that an error names the exact field ("overrides[2].match.host").
type cfg struct{ file string }

func (c cfg) fail(field string, err error) error {
	reason := ""
	if field != "" {
		reason = "field " + field
	}
	return &normalize.Error{Op: "load config", Input: c.file, Kind: normalize.KindConfig, Reason: reason, Err: err}
}

func (c cfg) failf(field, format string, a ...any) error {
	return c.fail(field, fmt.Errorf(format, a...))
}

// parse checks that data is one JSON document and returns it.
func (c cfg) parse(data []byte) (json.RawMessage, error) {
	var raw json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return nil, c.fail("", syntaxError(data, err))
	}
	if dec.More() {
		return nil, c.failf("", "trailing data after the JSON document")
	}
	return raw, nil
}

// document reads a file holding one JSON object.
func (c cfg) document(data []byte) (map[string]json.RawMessage, error) {
	raw, err := c.parse(data)
	if err != nil {
		return nil, err
	}
	return c.object("", raw)
}

// syntaxError adds the line and column to a JSON syntax error.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	before := data[:min(int(se.Offset), len(data))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n') - 1 // Offset counts the bad byte
	return fmt.Errorf("line %d, column %d: %v", line, col, err)
}

// object decodes raw as a JSON object; null is an empty object.
func (c cfg) object(field string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	if isNull(raw) {
		return map[string]json.RawMessage{}, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, c.failf(field, "want an object, got %s", jsonKind(raw))
	}
	return m, nil
}

// known rejects the keys of m that are not in keys.
func (c cfg) known(field string, m map[string]json.RawMessage, keys ...string) error {
	var unknown []string
	for k := range m {
		if !slices.Contains(keys, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return c.failf(join(field, unknown[0]), "unknown field (known fields: %s)", strings.Join(keys, ", "))
}

// list decodes raw as a JSON array; null or absent is empty.
func (c cfg) list(field string, raw json.RawMessage) ([]json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	var l []json.RawMessage
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, c.failf(field, "want a list, got %s", jsonKind(raw))
	}
	return l, nil
}

// str decodes a required string.
func (c cfg) str(field string, raw json.RawMessage) (string, error) {
	var s string
	if isNull(raw) {
		return "", c.failf(field, "required")
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", c.failf(field, "want a string, got %s", jsonKind(raw))
	}
	return s, nil
}

// strs decodes a list of strings, or one string as a list of one.
func (c cfg) strs(field string, raw json.RawMessage) ([]string, error) {
	if len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '"' {
		s, err := c.str(field, raw)
		return []string{s}, err
	}
	l, err := c.list(field, raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(l))
	for i, e := range l {
		s, err := c.str(index(field, i), e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// patterns decodes a list of parameter patterns and compiles each.
func (c cfg) patterns(field string, raw json.RawMessage) ([]string, error) {
	l, err := c.strs(field, raw)
	if err != nil {
		return nil, err
	}
	for i, s := range l {
		if err := normalize.CheckPattern(s); err != nil {
			return nil, c.fail(index(field, i), err)
		}
	}
	return l, nil
}

// host reads a host name and returns it the way URLs' hosts are
// normalized (lowercase, punycode, IPv4/IPv6 canonical form, without a
// trailing dot when p strips them), so that it matches them.
func (c cfg) host(field string, raw json.RawMessage, p *normalize.Profile) (string, error) {
	s, err := c.str(field, raw)
	if err != nil {
		return "", err
	}
	h, ok := canonicalHost(s, p.Host.StripTrailingDot)
	if !ok {
		return "", c.failf(field, "%q is not a host name (no scheme, port, path or userinfo)", s)
	}
	return h, nil
}

func canonicalHost(s string, stripDot bool) (string, bool) {
	ipv6 := strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]")
	if s == "" || strings.ContainsAny(s, "/?#@\\") || strings.Contains(s, ":") && !ipv6 {
		return "", false // a URL, a port, userinfo: not a bare host
	}
	u, err := normalize.Parse("http://" + s + "/")
	if err != nil || u.Port() != -1 || u.HostKind() == normalize.HostEmpty || strings.HasSuffix(s, ":") {
		return "", false
	}
	h := u.Host()
	if stripDot && u.HostKind() == normalize.HostDomain {
		h = strings.TrimRight(h, ".")
	}
	return h, h != ""
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// jsonKind names the JSON type of raw for error messages.
func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func index(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }
