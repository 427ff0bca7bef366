package normalize

// NewReference returns a normalizer for p that never takes the fast paths
// (the parser's one-pass plain authority, run's one-move copy of scheme,
// authority and path): the slower general code that fastpath_test.go
// checks the fast paths against.
func NewReference(p Profile) (*Normalizer, error) {
	n, err := New(p)
	if n != nil {
		n.slow = true
	}
	return n, err
}
