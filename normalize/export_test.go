package normalize

// NewReference returns a normalizer for p that takes no fast path (see
// useReference): the general code fastpath_test.go and FuzzNormalize check
// the fast paths against.
func NewReference(p Profile) (*Normalizer, error) {
	n, err := New(p)
	if n != nil {
		n.useReference()
	}
	return n, err
}
