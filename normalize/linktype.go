package normalize

import "strings"

// Link types: clara-policy.md "Informative Link vs Home Page".
const (
	LinkHomepage    = "homepage"    // root or landing page, no specific content
	LinkSection     = "section"     // an intermediate navigation page
	LinkInformative = "informative" // a specific procedure, requirement or document
)

// LinkType classifies a canonical URL as LinkHomepage, LinkSection or
// LinkInformative with clara-policy's heuristics, in this order:
//
//  1. informative when the URL carries an identifier: a path segment that
//     is a number or holds a run of 3 or more digits ("12345",
//     "tramit-12345"), a UUID-like hex run ("65850d68-…"), a hyphenated
//     slug ("prestacion-desempleo", but not a language tag like "es-ES"),
//     a document ("….pdf", "….docx" …), or a non-empty query parameter
//     id, codigo or expediente (clara Rule 3's resource identifiers);
//  2. homepage when the path has 0 or 1 segments ("/", "/inicio", "/es");
//  3. section otherwise ("/HomeSepe/Personas").
//
// The document's own heuristics also call any path of depth ≥ 2
// informative, which contradicts its section example; identifier signals
// settle it. ";name=value" path parameters (";jsessionid=…") and empty
// segments are ignored. LinkType looks at the string only; give it a
// canonical URL (ClassifyURL canonicalizes first). A URL without a host
// ("mailto:a@b.c") is no page: LinkType returns "".
func LinkType(canonical string) string {
	path, query, ok := pathQuery(canonical)
	if !ok {
		return "" // no host ("mailto:a@b.c"): not a page
	}
	depth := 0
	for path != "" {
		var seg string
		seg, path, _ = strings.Cut(path, "/")
		seg, _, _ = strings.Cut(seg, ";")
		if seg == "" {
			continue
		}
		depth++
		if identifierSegment(seg) || path == "" && documentSegment(seg) {
			return LinkInformative
		}
	}
	if identifierQuery(query) {
		return LinkInformative
	}
	if depth <= 1 {
		return LinkHomepage
	}
	return LinkSection
}

// ClassifyURL is url_link_type: it canonicalizes raw with the built-in
// clara profile (the policy the link types come from: session ids,
// tracking and page parameters and the fragment are gone) and classifies
// the result with LinkType. Input clara rejects (no scheme, a scheme other
// than http and https, a bad host …) is an error, so
// ClassifyURL(u) == Canonicalize(u).LinkType under clara, always.
func ClassifyURL(raw string) (string, error) {
	n, err := Lookup("clara")
	if err != nil {
		return "", err
	}
	var buf [256]byte
	b, err := n.AppendNormalized(buf[:0], raw)
	if err != nil {
		return "", withOp(err, "link type")
	}
	return LinkType(bstr(b)), nil
}

// pathQuery returns the path and query of a "scheme://authority/path?query"
// string; ok is false when there is no authority.
func pathQuery(s string) (path, query string, ok bool) {
	s, _, _ = strings.Cut(s, "#")
	s, query, _ = strings.Cut(s, "?")
	k := schemeLen(s)
	if k == 0 {
		return "", "", false
	}
	rest, ok := strings.CutPrefix(s[k+1:], "//")
	if !ok {
		return "", "", false
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:], query, true
	}
	return "", query, true
}

// identifierSegment reports a numeric id, a UUID-like hex run or a
// hyphenated slug.
func identifierSegment(seg string) bool {
	digits, maxDigits, hexRun, hexDigit, hexAlpha := 0, 0, 0, false, false
	allDigits := true
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if isDigit(c) {
			digits++
			maxDigits = max(maxDigits, digits)
		} else {
			digits, allDigits = 0, false
		}
		switch {
		case isHex(c):
			hexRun++
			hexDigit = hexDigit || isDigit(c)
			hexAlpha = hexAlpha || !isDigit(c)
			if hexRun >= 8 && hexDigit && hexAlpha {
				return true // "65850d68"
			}
		default:
			hexRun, hexDigit, hexAlpha = 0, false, false
		}
	}
	if allDigits || maxDigits >= 3 {
		return true
	}
	return isSlug(seg)
}

// isSlug: two alphanumeric words joined by '-' ("he-dejado-de-trabajar"),
// except a language tag ("es-ES", "ca-es", "zh-hans").
func isSlug(seg string) bool {
	for i := 1; i+1 < len(seg); i++ {
		if seg[i] == '-' && isAlnum(seg[i-1]) && isAlnum(seg[i+1]) {
			return !isLanguageTag(seg)
		}
	}
	return false
}

func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

func isLanguageTag(seg string) bool {
	lang, region, ok := strings.Cut(seg, "-")
	return ok && len(lang) >= 2 && len(lang) <= 3 && allAlpha(lang) &&
		len(region) >= 2 && len(region) <= 4 && allAlpha(region)
}

func allAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlpha(s[i]) {
			return false
		}
	}
	return true
}

// documentExts are the extensions of documents (clara: "URL points to a
// PDF or specific document"); web pages (.html, .php …) are not documents.
var documentExts = []string{
	"pdf", "doc", "docx", "odt", "rtf", "txt", "epub",
	"xls", "xlsx", "ods", "csv", "ppt", "pptx", "odp", "zip",
}

func documentSegment(seg string) bool {
	i := strings.LastIndexByte(seg, '.')
	if i <= 0 {
		return false
	}
	ext := seg[i+1:]
	for _, e := range documentExts {
		if equalFold(ext, e) {
			return true
		}
	}
	return false
}

// identifierQuery reports a non-empty id, codigo or expediente parameter.
func identifierQuery(q string) bool {
	for q != "" {
		var kv string
		kv, q, _ = strings.Cut(q, "&")
		k, v, _ := strings.Cut(kv, "=")
		if v != "" && (equalFold(k, "id") || equalFold(k, "codigo") || equalFold(k, "expediente")) {
			return true
		}
	}
	return false
}
