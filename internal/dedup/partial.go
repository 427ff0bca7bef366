package dedup

// Spelling is an input with the place of its first occurrence in input
// order: the index of its file in the list of inputs, and its index
// among that file's values.
type Spelling struct {
	File int32
	Seq  int64
	Text string
}

func (s Spelling) before(t Spelling) bool {
	return s.File < t.File || s.File == t.File && s.Seq < t.Seq
}

// Partial is a group built from some of the inputs, in any order (a
// Beam combiner's accumulator). Its examples are the max distinct
// spellings that occur first, with their first positions, in input
// order: merging partials in any grouping and order keeps exactly the
// spellings that Table.Add keeps reading all inputs in order, since a
// spelling among the first max overall is among the first max of the
// part that holds its first occurrence.
type Partial struct {
	Count    int64
	Examples []Spelling
}

// Add counts one input.
func (p *Partial) Add(s Spelling, max int) {
	p.Count++
	p.addExample(s, max)
}

// Merge adds the inputs of q.
func (p *Partial) Merge(q Partial, max int) {
	p.Count += q.Count
	for _, s := range q.Examples {
		p.addExample(s, max)
	}
}

// addExample keeps s if it is a new spelling among the first max, or an
// earlier occurrence of a kept one.
func (p *Partial) addExample(s Spelling, max int) {
	for i, e := range p.Examples {
		if e.Text == s.Text {
			if !s.before(e) {
				return
			}
			p.Examples = append(p.Examples[:i], p.Examples[i+1:]...) // re-inserted below
			break
		}
	}
	i := len(p.Examples)
	for i > 0 && s.before(p.Examples[i-1]) {
		i--
	}
	if i >= max {
		return
	}
	p.Examples = append(p.Examples, Spelling{})
	copy(p.Examples[i+1:], p.Examples[i:])
	p.Examples[i] = s
	if len(p.Examples) > max {
		p.Examples = p.Examples[:max]
	}
}

// Group returns the group of canonical URL url.
func (p Partial) Group(url string) *Group {
	g := &Group{URL: url, Count: p.Count, Examples: make([]string, len(p.Examples))}
	for i, s := range p.Examples {
		g.Examples[i] = s.Text
	}
	return g
}
