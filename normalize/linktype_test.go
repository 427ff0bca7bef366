package normalize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestClassifyURL: clara-policy.md "Informative Link vs Home Page". The
// Definition table's three examples and the heuristics' examples classify
// as the document says; the other rows pin how the identifier signals
// resolve the document's conflicting depth rules.
func TestClassifyURL(t *testing.T) {
	for _, c := range []struct{ url, want, source string }{
		// clara-policy.md, Definition table
		{"https://www.sepe.es/HomeSepe/Personas/Distribucion-Prestaciones/he-dejado-de-trabajar.html", "informative", "Definition: informative link"},
		{"https://www.sepe.es", "homepage", "Definition: home page"},
		{"https://www.sepe.es/HomeSepe/Personas", "section", "Definition: section page (depth 2, no identifier)"},
		// clara-policy.md, Classification heuristics
		{"https://www.sepe.es/", "homepage", "heuristics: path is /"},
		{"https://www.sepe.es/inicio", "homepage", "heuristics: single segment /inicio"},
		{"https://www.sepe.es/home", "homepage", "heuristics: single segment /home"},
		{"https://www.sepe.es/es", "homepage", "heuristics: single segment /es"},
		{"https://www.sepe.es/prestacion-desempleo", "informative", "heuristics: slug like prestacion-desempleo"},
		{"https://www.sepe.es/HomeSepe/Personas/12345", "informative", "heuristics: numeric id"},
		{"https://www.boe.es/boe/dias/2023/07/28/pdfs/guia.pdf", "informative", "heuristics: points to a PDF"},
		// the document's other URLs
		{"https://www.boe.es/buscar/act.php?id=BOE-A-2023-12345", "informative", "Edge Cases, BOE: id parameter"},
		{"https://www.boe.es/diario_boe/txt.php?id=BOE-A-2023-12345", "informative", "Edge Cases, BOE: id parameter"},
		{"https://boe.es/buscar?id=BOE-A-2023-12345", "informative", "Rule 3: id parameter at depth 1"},
		{"https://sede.seg-social.gob.es/wps/portal/wss/internet/Trabajadores/PrestacionesPensionesTrabajadores/65850d68-684d-4bb5-9e8f-1a2b3c4d5e6f", "informative", "Edge Cases, Sede: UUID-like segment"},
		{"https://sede.seg-social.gob.es/wps/portal/wss/internet/Trabajadores/PrestacionesPensionesTrabajadores/65850d68-...", "informative", "Edge Cases, Sede: the segment as the document writes it"},
		{"https://web.gencat.cat/es/tramits/tramit-12345", "informative", "Rule 10: slug with a number"},
		{"https://euskadi.eus/tramite/eu/12345", "informative", "Rule 10: numeric id"},
		{"https://inclusion.gob.es/extranjeria#requisitos", "homepage", "Rule 4: depth 1 (the fragment is not content)"},
		{"https://boe.es/buscar?tipo=leyes&p=7", "homepage", "Rule 9: depth 1, tipo is a filter, not an identifier"},
		{"https://sede.example.gob.es/tramite;jsessionid=ABC123?id=456", "informative", "Rule 8: id=456 (the session id is not an identifier)"},
		{"https://sede.example.gob.es/tramite/solicitud;jsessionid=ABC123", "section", "Rule 8: the session id's digits do not count"},
		// resolution rules
		{"https://www.sepe.es/es-ES/inicio", "section", "a language tag is not a slug"},
		{"https://www.sepe.es/HomeSepe/Personas/index.html", "section", ".html is a page, not a document"},
		{"https://www.sepe.es/a/b/v2", "section", "a single digit is not an id"},
		{"https://www.sepe.es/?id=", "homepage", "an empty id is not an identifier"},
		{"http://WWW.SEPE.ES/HomeSepe/Personas/?utm_source=x", "section", "classified after clara canonicalization"},
	} {
		got, err := normalize.ClassifyURL(c.url)
		if err != nil || got != c.want {
			t.Errorf("ClassifyURL(%q) = %q, %v; want %q (%s)", c.url, got, err, c.want, c.source)
		}
		r, err := normalize.MustLookup("clara").Canonicalize(c.url)
		if err != nil || r.LinkType != got {
			t.Errorf("clara Canonicalize(%q).LinkType = %q, %v; want ClassifyURL's %q", c.url, r.LinkType, err, got)
		}
	}
}

// TestClassifyURLErrors: url_link_type raises where clara cannot
// canonicalize; the error names the operation and its kind.
func TestClassifyURLErrors(t *testing.T) {
	for _, c := range []struct{ url, kind string }{
		{"", "empty_input"},
		{"www.sepe.es/HomeSepe", "missing_scheme"},
		{"ftp://ftp.sepe.es/doc.pdf", `unsupported_scheme (scheme "ftp": scheme.allowed http, https)`},
		{"https://exa mple.es/", "invalid_host (' ' at byte 11)"},
	} {
		got, err := normalize.ClassifyURL(c.url)
		if kind, _, _ := strings.Cut(c.kind, " "); normalize.KindOf(err) != kind {
			t.Errorf("ClassifyURL(%q) = %q, %v; want error %s", c.url, got, err, c.kind)
			continue
		}
		if want := fmt.Sprintf("urlnorm: link type %q: %s", c.url, c.kind); err.Error() != want {
			t.Errorf("ClassifyURL(%q) error %q, want %q", c.url, err, want)
		}
	}
}

func ExampleClassifyURL() {
	for _, u := range []string{
		"https://www.sepe.es",
		"https://www.sepe.es/HomeSepe/Personas",
		"https://www.sepe.es/HomeSepe/Personas/Distribucion-Prestaciones/he-dejado-de-trabajar.html",
	} {
		t, _ := normalize.ClassifyURL(u)
		fmt.Println(t)
	}
	// Output:
	// homepage
	// section
	// informative
}

// TestLinkType: LinkType reads a canonical URL of any profile.
func TestLinkType(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://example.com", "homepage"},
		{"https://example.com/", "homepage"},
		{"https://example.com?id=7", "informative"}, // default profile drops the root slash
		{"https://example.com/a/b#x", "section"},
		{"https://example.com/a/b/c.PDF", "informative"},
		{"https://example.com/a.pdf/b", "section"}, // only the last segment is a document
		{"file:///home/user/doc-1.txt", "informative"},
		{"mailto:someone@example.com", ""}, // no host: not a page
		{"urn:isbn:0451450523", ""},
		{"", ""},
	} {
		if got := normalize.LinkType(c.url); got != c.want {
			t.Errorf("LinkType(%q) = %q, want %q", c.url, got, c.want)
		}
	}
}

// BenchmarkClassifyURL: url_link_type over the shipped corpus (clara
// canonicalization plus classification; no allocation).
func BenchmarkClassifyURL(b *testing.B) {
	urls := shippedCorpus(b, false)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		normalize.ClassifyURL(urls[i%len(urls)])
	}
}
