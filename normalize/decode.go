package normalize

import "bytes"

// percent.decode_repeatedly (Safe Browsing): every escape decoded until
// none is left, then the component encoded again with what it needs.

// Encode sets of decode_repeatedly, per component: the URL Standard's
// percent-encode set of the component (so that the output re-parses to
// itself), and '%' (a decoded '%' is data) and '#'.
const (
	decPath = iota
	decSpecialPath
	decOpaquePath
	decQuery
	decSpecialQuery
	decFragment
	decUserinfo
	decSets
)

var decodeSets [decSets][256]bool

func init() {
	for _, s := range []struct {
		set   int
		class uint8
		extra string
	}{
		{decPath, encPath, "%#"},
		{decSpecialPath, encPath, "%#\\"},    // '\' is a '/' in special URLs
		{decOpaquePath, encC0, "%#? \"<>`"},  // a '?' would start the query
		{decQuery, encQuery, "%#"},           //
		{decSpecialQuery, encSpecialQ, "%#"}, //
		{decFragment, encFragment, "%#"},     //
		{decUserinfo, encUserinfo, "%#"},     //
	} {
		for c := 0; c < 256; c++ {
			decodeSets[s.set][c] = class[c]&s.class != 0 || bytes.IndexByte([]byte(s.extra), byte(c)) >= 0
		}
	}
}

// decodeFully appends s decoded to its fixed point: the result has no
// valid escape left, as if s were decoded pass after pass until nothing
// changed ("%252541" → "%2541" → "%41" → "A"). One pass is enough:
// escapes cannot overlap ('%' is no hex digit), so every order of
// decoding reaches the same result, and decoding the output as a stack
// (an escape completed by a decoded byte is decoded at once) does each
// byte a bounded number of times: linear in len(s), where Safe Browsing
// runs up to 1024 passes.
func decodeFully(dst []byte, s string) []byte {
	start := len(dst)
	for i := 0; i < len(s); i++ {
		dst = append(dst, s[i])
		for n := len(dst); n-start >= 3 && dst[n-3] == '%' && isHex(dst[n-2]) && isHex(dst[n-1]); n = len(dst) {
			dst = append(dst[:n-3], unhex(dst[n-2])<<4|unhex(dst[n-1]))
		}
	}
	return dst
}

// appendEncodedSet appends s with every byte in set percent-encoded.
func appendEncodedSet(dst, s []byte, set *[256]bool) []byte {
	for _, c := range s {
		if set[c] {
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		} else {
			dst = append(dst, c)
		}
	}
	return dst
}

// decodeComponent decodes s fully and encodes it with set, in st's
// buffers; the result is valid until the next call.
func (st *state) decodeComponent(s string, set int) string {
	st.dec = decodeFully(st.dec[:0], s)
	st.enc = appendEncodedSet(st.enc[:0], st.dec, &decodeSets[set])
	return bstr(st.enc)
}

// decodePath is decodeComponent for u's path: a decoded '/' separates
// segments, so dot segments ("%2E%2E", "%252E") are resolved again as the
// parser resolves them.
func (st *state) decodePath(u *URL, path string) string {
	st.dec = decodeFully(st.dec[:0], path)
	set := decPath
	switch {
	case u.opaque:
		set = decOpaquePath
	case u.special:
		set = decSpecialPath
		st.dec = resolveDots(st.dec, u.Scheme() == "file")
	default:
		st.dec = resolveDots(st.dec, false)
	}
	st.enc = st.enc[:0]
	d := st.dec
	if u.opaque && len(d) > 0 && d[0] == '/' {
		// "sc:%2Fa" decoded to "sc:/a" would re-parse with a path, not
		// an opaque path (fuzz regression): the first '/' stays encoded.
		st.enc, d = append(st.enc, "%2F"...), d[1:]
	}
	st.enc = appendEncodedSet(st.enc, d, &decodeSets[set])
	return bstr(st.enc)
}

// resolveDots removes the "." and ".." segments of the path b in place,
// as the URL Standard's path parser does: ".." removes the segment before
// it (never above the root, never a file URL's lone drive letter "/C:"),
// and a "." or ".." at the end leaves a trailing '/'.
func resolveDots(b []byte, file bool) []byte {
	if len(b) == 0 || b[0] != '/' {
		return b
	}
	w := 0
	for r := 0; r < len(b); {
		end := r + 1
		for end < len(b) && b[end] != '/' {
			end++
		}
		seg, last := b[r+1:end], end == len(b)
		switch {
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.':
			if !(file && isDriveOnly(b[:w])) {
				if i := bytes.LastIndexByte(b[:w], '/'); i >= 0 {
					w = i
				}
			}
			if last {
				b[w] = '/'
				w++
			}
		case len(seg) == 1 && seg[0] == '.':
			if last {
				b[w] = '/'
				w++
			}
		default:
			w += copy(b[w:], b[r:end])
		}
		r = end
	}
	return b[:w]
}

// isDriveOnly reports whether the path p is one normalized Windows drive
// letter segment ("/C:"), which ".." does not remove in a file URL.
func isDriveOnly(p []byte) bool {
	return len(p) == 3 && p[0] == '/' && isAlpha(p[1]) && p[2] == ':'
}
