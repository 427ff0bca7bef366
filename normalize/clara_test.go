package normalize_test

import (
	"reflect"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// TestClaraMetadata: what clara-policy.md says to record next to the
// canonical URL (Rules 4, 8, 9 and 10), as Canonicalize reports it.
func TestClaraMetadata(t *testing.T) {
	n := normalize.MustLookup("clara")
	for _, c := range []struct {
		source string
		in     string
		want   normalize.Result // URL, LinkType and metadata; hash, profile and version are checked apart
	}{
		{"Rule 4: logged: fragment=#requisitos", "https://inclusion.gob.es/extranjeria#requisitos", normalize.Result{
			URL: "https://inclusion.gob.es/extranjeria", LinkType: "homepage",
			Fragment: "requisitos", HasFragment: true}},
		{"Rule 9: Metadata { paginated: true, page_param: \"p\" } (total_pages needs the network)", "https://boe.es/buscar?tipo=leyes&p=7", normalize.Result{
			URL: "https://www.boe.es/buscar?tipo=leyes", LinkType: "homepage",
			Removed:    []normalize.Param{{Key: "p", Value: "7", Reason: "pagination"}},
			Pagination: &normalize.PageInfo{Param: "p", Value: "7"}}},
		{"Rule 10: gencat canonical with ca and en alternates", "https://web.gencat.cat/ca/tramits/tramit-12345", normalize.Result{
			URL: "https://web.gencat.cat/es/tramits/tramit-12345", LinkType: "informative",
			Language: &normalize.LanguageInfo{Original: "ca", Preferred: "es", Languages: []string{"es", "ca", "en"}},
			Alternates: []normalize.Alternate{
				{Lang: "ca", URL: "https://web.gencat.cat/ca/tramits/tramit-12345"},
				{Lang: "en", URL: "https://web.gencat.cat/en/tramits/tramit-12345"}}}},
		{"Rule 10: euskadi canonical with the eu alternate", "https://euskadi.eus/tramite/es/12345", normalize.Result{
			URL: "https://euskadi.eus/tramite/es/12345", LinkType: "informative",
			Language:   &normalize.LanguageInfo{Original: "es", Preferred: "es", Languages: []string{"es", "eu"}},
			Alternates: []normalize.Alternate{{Lang: "eu", URL: "https://euskadi.eus/tramite/eu/12345"}}}},
		{"Rules 8 and 10 (clara 1.0.2): a \"..\" left by a session id moves the language segment; alternates follow the canonical URL", "https://web.gencat.cat/x/..;jsessionid=1/ca/page", normalize.Result{
			URL: "https://web.gencat.cat/es/page", LinkType: "section",
			Removed:  []normalize.Param{{Key: "jsessionid", Value: "1", Reason: "session", InPath: true}},
			Language: &normalize.LanguageInfo{Original: "ca", Preferred: "es", Languages: []string{"es", "ca", "en"}},
			Alternates: []normalize.Alternate{
				{Lang: "ca", URL: "https://web.gencat.cat/ca/page"},
				{Lang: "en", URL: "https://web.gencat.cat/en/page"}}}},
		{"Rules 8 and 10 (clara 1.0.2): a \"..\" that removes the rewritten language segment takes its report too", "https://web.gencat.cat/ca/..;jsessionid=1/page", normalize.Result{
			URL: "https://web.gencat.cat/page", LinkType: "homepage",
			Removed: []normalize.Param{{Key: "jsessionid", Value: "1", Reason: "session", InPath: true}}}},
		{"Rules 8 and 3: session ids (path and query) and tracking, each with its reason", "https://sede.example.gob.es/tramite;jsessionid=ABC123?id=456&utm_source=x&PHPSESSID=9", normalize.Result{
			URL: "https://sede.example.gob.es/tramite?id=456", LinkType: "informative",
			Removed: []normalize.Param{
				{Key: "jsessionid", Value: "ABC123", Reason: "session", InPath: true},
				{Key: "utm_source", Value: "x", Reason: "tracking"},
				{Key: "PHPSESSID", Value: "9", Reason: "session"}}}},
		{"Definition: section page", "http://sepe.es/HomeSepe/Personas/", normalize.Result{
			URL: "https://www.sepe.es/HomeSepe/Personas", LinkType: "section"}},
	} {
		r, err := n.Canonicalize(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.source, err)
			continue
		}
		if r.Profile != "clara" || r.Version != n.Version() || r.Hash != n.HashCanonical(r.URL) {
			t.Errorf("%s: profile %q version %q hash %q", c.source, r.Profile, r.Version, r.Hash)
		}
		r.Profile, r.Version, r.Hash = "", "", ""
		if r.Language != nil {
			// unexported bookkeeping: compare the exported fields
			r.Language = &normalize.LanguageInfo{Original: r.Language.Original, Preferred: r.Language.Preferred, Languages: r.Language.Languages}
		}
		if !reflect.DeepEqual(r, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.source, r, c.want)
		}
	}
}
