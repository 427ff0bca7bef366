package corpus

import "strconv"

// Rows is the deterministic row set of the SQL benchmarks: row i is built
// from Base[i % len(Base)] and its repeat number r = i / len(Base).
// Repeat 0 is the URL itself; later repeats add a query parameter
// bench=<k> (k = (r+3)/4, so four repeats share one k) and then one of
// four perturbations that the default profile undoes:
//
//	r%4 == 1  nothing more
//	r%4 == 2  scheme and host upper-cased      (lowercased back)
//	r%4 == 3  a fragment #f<r>                 (removed)
//	r%4 == 0  a trailing slash on the path     (removed)
//
// So nearly every row is distinct as text, while normalize_url folds each
// group of four back into one URL — the dedup a user runs the function
// for. Base URLs must be absolute URLs with an authority (the web corpus
// filtered by what the profile accepts).
type Rows struct {
	Base []string
}

// Row returns row i.
func (r Rows) Row(i int) string {
	u := r.Base[i%len(r.Base)]
	rep := i / len(r.Base)
	if rep == 0 {
		return u
	}
	head, query, frag := splitURL(u)
	sep := "?"
	if query != "" {
		sep = "&"
	}
	k := strconv.Itoa((rep + 3) / 4)
	switch rep % 4 {
	case 0:
		head += "/"
	case 2:
		head = upperAuthority(head)
	case 3:
		frag = "#f" + strconv.Itoa(rep)
	}
	return head + query + sep + "bench=" + k + frag
}

// splitURL cuts u before its first '?' and its first '#' (the fragment
// starts at the first '#', the query at the first '?' before it).
func splitURL(u string) (head, query, frag string) {
	for i := 0; i < len(u); i++ {
		if u[i] == '#' {
			u, frag = u[:i], u[i:]
			break
		}
	}
	for i := 0; i < len(u); i++ {
		if u[i] == '?' {
			return u[:i], u[i:], frag
		}
	}
	return u, "", frag
}

// upperAuthority upper-cases the ASCII letters of the scheme and the
// authority (everything before the first '/' after "://").
func upperAuthority(s string) string {
	b := []byte(s)
	slashes := 0
	for i, c := range b {
		if c == '/' {
			if slashes++; slashes == 3 {
				break
			}
		}
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
