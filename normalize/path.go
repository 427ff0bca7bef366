package normalize

import (
	"bytes"
	"slices"
	"strings"
)

// appendPath appends the path after the profile's path rules.
func (n *Normalizer) appendPath(st *state, out []byte, u *URL, hr *hostRule, host string, rec *Result) ([]byte, *Kind) {
	path := u.Path()
	if n.pct.DecodeRepeatedly {
		path = st.decodePath(u, path)
	}
	if u.opaque {
		start := len(out)
		out = n.appendPct(out, path)
		if n.assume != "" && portPrefix(bstr(out[start:])) && !slices.Contains(n.allowed, u.Scheme()) {
			out = encodeAt(out, start) // "scheme:" and a port number would read as host:port
		}
		return out, nil
	}
	start := len(out)
	lang, _ := n.lang.get(host)
	// Segment by segment only when a rule needs it: path parameters can
	// only be removed from a path that has a ';' (clara's session ids), and
	// most paths have none — appendPct over the whole path is the same
	// output, faster (clara: 16 % of its time went to appendSegments).
	if n.reference || n.bySegment(path, lang) {
		out = n.appendSegments(st, out, path, lang, rec)
	} else {
		out = n.appendPct(out, path)
		if n.k.lowerPath {
			lowerKeepEscapes(out[start:])
		}
	}
	if u.special && u.Scheme() == "file" {
		out = keepDriveLetter(out, start)
	}
	return n.finishPath(out, start, u), nil
}

// bySegment reports whether the path needs appendSegments: a rule that
// works on segments has something to do.
func (n *Normalizer) bySegment(path string, lang *LanguageHost) bool {
	return lang != nil ||
		n.collapse && strings.Contains(path, "//") ||
		len(n.pathGroups) > 0 && strings.IndexByte(path, ';') >= 0 ||
		len(n.k.cookieless) > 0 && strings.IndexByte(path, '(') >= 0
}

// finishPath applies the trailing-slash and empty-path rules to the path
// at out[start:] and keeps a host-less path from starting with "//".
func (n *Normalizer) finishPath(out []byte, start int, u *URL) []byte {
	switch n.slash {
	case slashRemove:
		for len(out) > start && out[len(out)-1] == '/' {
			out = out[:len(out)-1]
		}
	case slashRemoveExceptRoot:
		for len(out) > start+1 && out[len(out)-1] == '/' {
			out = out[:len(out)-1]
		}
	}
	if len(out) == start && n.emptyDir && u.hostKind != HostNone {
		out = append(out, '/')
	}
	if u.hostKind == HostNone && len(out)-start > 1 && out[start] == '/' && out[start+1] == '/' {
		// URL Standard serializer: a host-less path starting with "//"
		// is written after "/." so that it does not re-parse as a host.
		out = append(out, 0, 0)
		copy(out[start+2:], out[start:len(out)-2])
		out[start], out[start+1] = '/', '.'
	}
	return out
}

// appendSegments appends a path one segment at a time, for the rules that
// work on segments: collapsing empty ones, removing ";name=value" path
// parameters, rewriting a language segment.
func (n *Normalizer) appendSegments(st *state, out []byte, path string, lang *LanguageHost, rec *Result) []byte {
	seg, pathStart := 0, len(out)
	for len(path) > 0 {
		// path is "/seg/seg…": take one segment.
		path = path[1:]
		end := strings.IndexByte(path, '/')
		if end < 0 {
			end = len(path)
		}
		s := path[:end]
		path = path[end:]
		if s == "" && n.dropEmpty(out[pathStart:], path == "") {
			continue
		}
		out = append(out, '/')
		segStart := len(out)
		out = n.appendPct(out, s)
		if n.k.lowerPath {
			lowerKeepEscapes(out[segStart:])
		}
		if len(n.pathGroups) > 0 && strings.IndexByte(s, ';') >= 0 {
			out = n.removePathParams(out, segStart, rec)
			var gone int
			if out, gone = resolveDotSegment(out, pathStart, segStart, path == ""); gone >= 0 {
				// The segment, and for ".." the one before it, left the
				// path: the next segment takes their place, and the
				// language segment is counted in the path as written (a
				// "..;sid" before it once made a rewrite past the end of
				// out, a panic, and outputs that were not idempotent).
				seg = max(seg-gone, 0)
				if st.pass.lang != nil && st.pass.langAt >= len(out) {
					st.pass = pass{} // the rewritten language segment went too
				}
				continue
			}
			if len(out) == segStart && n.dropEmpty(out[pathStart:segStart-1], path == "") {
				out = out[:segStart-1] // emptied ("/;sid=1/"): as an empty segment (fuzz regression)
				continue
			}
		}
		if len(n.k.cookieless) > 0 && len(out) > segStart && out[segStart] == '(' {
			var gone bool
			if out, gone = n.removeCookieless(out, segStart, rec); gone && path != "" {
				out = out[:segStart-1] // the segment and its '/'; a last one stays empty ("/a/")
				continue
			}
		}
		if lang != nil && seg == lang.Segment {
			out = n.rewriteLanguage(st, out, segStart, lang, rec != nil)
		}
		seg++
	}
	return out
}

// dropEmpty reports whether an empty segment after the path written so
// far goes: collapse_slashes drops it ("a//b"), unless it is the last
// ("a/" keeps its trailing slash) or follows an embedded scheme under
// keep_scheme_slashes ("/r/http://x").
func (n *Normalizer) dropEmpty(written []byte, last bool) bool {
	return n.collapse && !last && !(n.k.schemeSlashes && endsInScheme(written))
}

// resolveDotSegment resolves the segment at out[segStart:] as the URL
// parser would if it is "." or "..": a segment such as ".;sid" becomes one
// when its parameters are removed, and the output must re-parse to itself
// ("/.;sid" → "/." would become "/" on the next pass; fuzz regression).
// last says whether it is the path's last segment, which leaves a '/'.
// gone is how many segments before it went too: 0 for ".", 1 for ".."
// (none above the root); -1 when the segment is neither and stays.
func resolveDotSegment(out []byte, pathStart, segStart int, last bool) (_ []byte, gone int) {
	switch string(out[segStart:]) {
	case ".":
		out = out[:segStart-1] // "/a/./b" → "/a/b"
	case "..":
		out = out[:segStart-1]
		if i := bytes.LastIndexByte(out[pathStart:], '/'); i >= 0 {
			out = out[:pathStart+i] // "/a/b/../c" → "/a/c"; never above the root
			gone = 1
		}
	default:
		return out, -1
	}
	if last {
		out = append(out, '/') // "/a/." → "/a/", "/a/b/.." → "/a/"
	}
	return out, gone
}

// keepDriveLetter stops a rule from creating a Windows drive letter: a
// file URL's first segment "X|" (made by decoding "%70|", or by collapsing
// "//p|") would re-parse as "X:", a different path, so the output would
// not be a fixed point. The parser never leaves "X|" itself; the '|' is
// written as %7C, which means the same to a server.
func keepDriveLetter(out []byte, start int) []byte {
	p := out[start:]
	if len(p) < 3 || p[0] != '/' || !isAlpha(p[1]) || p[2] != '|' || (len(p) > 3 && p[3] != '/') {
		return out
	}
	out = append(out, 0, 0)
	copy(out[start+5:], out[start+3:len(out)-2])
	copy(out[start+2:], "%7C")
	return out
}

// encodeAt percent-encodes the byte out[i]. It keeps a rule from making
// an opaque URL that scheme.assume reads as something else on the next
// pass: "a:%30" decoded to "a:0" reads as host "a" and port 0, so the
// first digit of an opaque path that starts with a port number (the test
// hostPort makes) stays encoded, as
// keepDriveLetter keeps a file path from becoming a drive letter. Input
// "a:0" itself is a host and a port and never gets here.
func encodeAt(out []byte, i int) []byte {
	c := out[i]
	out = append(out, 0, 0)
	copy(out[i+3:], out[i+1:len(out)-2])
	out[i], out[i+1], out[i+2] = '%', upperHex[c>>4], upperHex[c&15]
	return out
}

// removePathParams drops ";name=value" parameters whose name matches a
// path group from the segment at out[segStart:].
func (n *Normalizer) removePathParams(out []byte, segStart int, rec *Result) []byte {
	seg := string(out[segStart:]) // rare path: a segment with ';'
	out = out[:segStart]
	parts := strings.Split(seg, ";")
	out = append(out, parts[0]...)
	for _, p := range parts[1:] {
		name, value, _ := strings.Cut(p, "=")
		if reason := n.pathGroups.match(name); reason != "" {
			if rec != nil {
				rec.Removed = append(rec.Removed, Param{Key: name, Value: value, Reason: reason, InPath: true})
			}
			continue
		}
		out = append(out, ';')
		out = append(out, p...)
	}
	return out
}

// rewriteLanguage replaces a language code in the segment at out[segStart:]
// by the preferred language (clara-policy Rule 10) and, when report is
// set (Canonicalize), records it in the pass.
func (n *Normalizer) rewriteLanguage(st *state, out []byte, segStart int, lang *LanguageHost, report bool) []byte {
	seg := bstr(out[segStart:])
	pref := n.preferred
	if lang.Preferred != "" {
		pref = lang.Preferred // e.g. "cas" where a site's Spanish is /cas/
	}
	if !slices.Contains(lang.Languages, seg) && seg != pref {
		return out
	}
	if report {
		st.pass = pass{lang: lang, langAt: segStart, original: strings.Clone(seg), pref: pref}
	}
	return append(out[:segStart], pref...)
}
