package model

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Whether two key templates can render the same value, decided exactly on what their segments can hold:
// each template becomes a finite automaton over bytes (literal text byte for byte; a placeholder as the
// language of its segment), and two templates overlap when the product of their automata reaches an
// accepting pair. The shortest such path is an example value both render.
//
// What a segment can hold (valueAutomaton):
//   - enum: exactly its values;
//   - time: the digits of its granularity's layout (2006-01-02 for day; millisecond is a 13-digit epoch);
//   - number: an optional minus sign, digits, and an optional fraction;
//   - {shard}: the zero-padded suffix, width digits;
//   - id: one or more characters, never one the table's templates use as a delimiter (a character that is
//     no letter or digit and stands next to a placeholder in a template: "#" of CUSTOMER#{customer_id}),
//     unless the segment declares its characters. That is the single-table convention: an id never holds
//     the delimiter, or keys could not be parsed back either.
//
// Lengths are not bounded (an id of 200 characters is as possible as one of 2): a collision the check
// reports may need a longer value than max_length allows, never the other way round.

// ByteSet is a set of bytes.
type ByteSet [4]uint64

func (s *ByteSet) Add(b byte) { s[b>>6] |= 1 << (b & 63) }

func (s ByteSet) Has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }

func (s ByteSet) and(o ByteSet) ByteSet {
	return ByteSet{s[0] & o[0], s[1] & o[1], s[2] & o[2], s[3] & o[3]}
}

func (s ByteSet) empty() bool { return s[0]|s[1]|s[2]|s[3] == 0 }

func (s ByteSet) Without(o ByteSet) ByteSet {
	return ByteSet{s[0] &^ o[0], s[1] &^ o[1], s[2] &^ o[2], s[3] &^ o[3]}
}

// pick is a byte of the set for an example: a digit or letter when there is one, so that examples read.
func (s ByteSet) pick() byte {
	for _, b := range []byte("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-") {
		if s.Has(b) {
			return b
		}
	}
	for w, word := range s {
		if word != 0 {
			return byte(w*64 + bits.TrailingZeros64(word))
		}
	}
	return 0
}

func byteRange(lo, hi byte) ByteSet {
	var s ByteSet
	for b := int(lo); b <= int(hi); b++ {
		s.Add(byte(b))
	}
	return s
}

func Single(b byte) ByteSet {
	var s ByteSet
	s.Add(b)
	return s
}

var (
	digitBytes = byteRange('0', '9')
	AnyByte    = ByteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
)

// Automaton is a nondeterministic finite automaton over bytes: state 0 is the start, accept the final state.
type Automaton struct {
	edges  [][]edge
	empty  [][]int // ε-moves
	accept int
}

type edge struct {
	set ByteSet
	to  int
}

func (m *Automaton) state() int {
	m.edges = append(m.edges, nil)
	m.empty = append(m.empty, nil)
	return len(m.edges) - 1
}

func (m *Automaton) on(from int, set ByteSet, to int) {
	m.edges[from] = append(m.edges[from], edge{set: set, to: to})
}

func (m *Automaton) epsilon(from, to int) { m.empty[from] = append(m.empty[from], to) }

// Literal appends the bytes of text after state from and returns the last state.
func (m *Automaton) literal(from int, text string) int {
	for i := range len(text) {
		next := m.state()
		m.on(from, Single(text[i]), next)
		from = next
	}
	return from
}

// oneOrMore appends one or more bytes of set.
func (m *Automaton) oneOrMore(from int, set ByteSet) int {
	next := m.state()
	m.on(from, set, next)
	m.on(next, set, next)
	return next
}

// ValueShape is what a placeholder can render, for the automaton.
type ValueShape struct {
	Values []string // enum
	Layout string   // time: '0'-'9' are digits, the rest literal
	Number bool
	Digits int     // {shard}: fixed width
	Chars  ByteSet // id
	// Anything is any text, the empty one included: what follows a selected prefix.
	Anything bool
}

// append appends the shape after state from and returns its end state.
func (v ValueShape) append(m *Automaton, from int) int {
	switch {
	case v.Values != nil:
		end := m.state()
		for _, value := range v.Values {
			m.epsilon(m.literal(from, value), end)
		}
		return end
	case v.Layout != "":
		for i := range len(v.Layout) {
			next := m.state()
			set := Single(v.Layout[i])
			if c := v.Layout[i]; c >= '0' && c <= '9' {
				set = digitBytes
			}
			m.on(from, set, next)
			from = next
		}
		return from
	case v.Number:
		sign := m.state()
		m.on(from, Single('-'), sign)
		m.epsilon(from, sign)
		whole := m.oneOrMore(sign, digitBytes)
		end := m.state()
		m.epsilon(whole, end)
		m.epsilon(m.oneOrMore(m.literal(whole, "."), digitBytes), end)
		return end
	case v.Anything:
		rest := m.state()
		m.epsilon(from, rest)
		m.on(rest, AnyByte.Without(Single(0)), rest)
		return rest
	case v.Digits > 0:
		for range v.Digits {
			next := m.state()
			m.on(from, digitBytes, next)
			from = next
		}
		return from
	}
	return m.oneOrMore(from, v.Chars)
}

// KeyAutomaton is the automaton of a whole item key: the templates of each key attribute in order, joined
// by a byte no template or segment holds (0), so that two keys match only attribute by attribute.
func KeyAutomaton(parts [][]TemplateAtom) *Automaton {
	m := &Automaton{}
	at := m.state()
	for i, atoms := range parts {
		if i > 0 {
			at = m.literal(at, "\x00")
		}
		for _, atom := range atoms {
			if atom.Shape == nil {
				at = m.literal(at, atom.Literal)
				continue
			}
			at = atom.Shape.append(m, at)
		}
	}
	m.accept = at
	return m
}

// TemplateAtom is a literal run or a placeholder's shape.
type TemplateAtom struct {
	Literal string
	Shape   *ValueShape
}

// CommonValue is a value both automata accept, and whether there is one: a breadth-first search of their
// product, so the example is a shortest one.
func CommonValue(a, b *Automaton) (string, bool) {
	var s Search
	return s.Common(a, b)
}

// Search holds the breadth-first search's buffers, reused from pair to pair: most of a pairwise check's time
// was their allocation.
type Search struct {
	// parent[s] is the pair the search reached s from, +1 (0: not reached); via[s] the byte it read, or -1
	// for an ε-move. reached lists the pairs in the order reached: the search's queue, and what to clear.
	parent  []int32
	via     []int16
	reached []int
}

func (s *Search) Common(a, b *Automaton) (string, bool) {
	nb := len(b.edges)
	if n := len(a.edges) * nb; cap(s.parent) < n {
		s.parent, s.via = make([]int32, n), make([]int16, n)
	} else {
		s.parent, s.via = s.parent[:n], s.via[:n]
	}
	defer func() {
		for _, at := range s.reached {
			s.parent[at] = 0
		}
		s.reached = s.reached[:0]
	}()
	id := func(p, q int) int { return p*nb + q }
	start := id(0, 0)
	s.parent[start] = int32(start) + 1
	s.reached = append(s.reached[:0], start)
	visit := func(next, from int, c int16) {
		if s.parent[next] == 0 {
			s.parent[next], s.via[next] = int32(from)+1, c
			s.reached = append(s.reached, next)
		}
	}
	for head := 0; head < len(s.reached); {
		cur := s.reached[head]
		head++
		p, q := cur/nb, cur%nb
		if p == a.accept && q == b.accept {
			var out []byte
			for at := cur; at != start; at = int(s.parent[at]) - 1 {
				if s.via[at] >= 0 {
					out = append(out, byte(s.via[at]))
				}
			}
			slices.Reverse(out)
			return string(out), true
		}
		for _, next := range a.empty[p] {
			visit(id(next, q), cur, -1)
		}
		for _, next := range b.empty[q] {
			visit(id(p, next), cur, -1)
		}
		for _, ea := range a.edges[p] {
			for _, eb := range b.edges[q] {
				if both := ea.set.and(eb.set); !both.empty() {
					visit(id(ea.to, eb.to), cur, int16(both.pick()))
				}
			}
		}
	}
	return "", false
}

// RangeAutomaton is every value a one-sided sort condition can return around the literal prefix of the range
// it starts in: the values starting with the prefix, and those that sort above it (above) or below it.
func RangeAutomaton(prefix string, above bool) *Automaton {
	m := &Automaton{}
	start := m.state()
	rest := m.state()
	end := m.state()
	m.on(rest, AnyByte.Without(Single(0)), rest)
	m.epsilon(rest, end)
	at := start
	for i := range len(prefix) {
		var side ByteSet
		for b := range 256 {
			if c := byte(b); c != 0 && (above && c > prefix[i] || !above && c < prefix[i]) {
				side.Add(c)
			}
		}
		if !side.empty() {
			m.on(at, side, rest)
		}
		if !above && i > 0 {
			m.epsilon(at, end) // a shorter value sorts below: a proper prefix of the prefix, exactly
		}
		next := m.state()
		m.on(at, Single(prefix[i]), next)
		at = next
	}
	m.epsilon(at, rest)
	m.accept = end
	return m
}

// DisjointPrefixes reports whether two keys' attribute values can be told apart by their leading literal
// text alone (ORDER# and INVOICE#), which settles most pairs of a single table without the search.
func DisjointPrefixes(a, b []string) bool {
	for i := range min(len(a), len(b)) {
		n := min(len(a[i]), len(b[i]))
		if a[i][:n] != b[i][:n] {
			return true
		}
	}
	return false
}

// LiteralPrefix is the literal text a template's value starts with.
func LiteralPrefix(atoms []TemplateAtom) string {
	var b strings.Builder
	for _, atom := range atoms {
		if atom.Shape != nil {
			break
		}
		b.WriteString(atom.Literal)
	}
	return b.String()
}

// ParseCharacters reads a segment's characters: letters, digits and punctuation listed one by one, with
// a-z style ranges; a "-" first or last is itself.
func ParseCharacters(spec string) (ByteSet, error) {
	var s ByteSet
	if spec == "" {
		return s, fmt.Errorf("is empty: list the characters an id may hold, e.g. 0-9A-Za-z")
	}
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		if c > 0x7e || c < 0x20 {
			return s, fmt.Errorf("holds %q: list printable ASCII characters", spec[i:i+1])
		}
		if i+2 < len(spec) && spec[i+1] == '-' {
			hi := spec[i+2]
			if hi > 0x7e || hi < 0x20 {
				return s, fmt.Errorf("holds %q: list printable ASCII characters", spec[i+2:i+3])
			}
			if hi < c {
				return s, fmt.Errorf("has the range %q, which runs backwards", spec[i:i+3])
			}
			s = orSets(s, byteRange(c, hi))
			i += 2
			continue
		}
		s.Add(c)
	}
	return s, nil
}

func orSets(a, b ByteSet) ByteSet { return ByteSet{a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]} }

// ExampleKey writes a common value as the attribute values it joins: PK=CUSTOMER#0, SK=ORDER#0.
func ExampleKey(value string, attributes []string) string {
	parts := strings.Split(value, "\x00")
	out := make([]string, 0, len(parts))
	for i, p := range parts {
		name := "?"
		if i < len(attributes) {
			name = attributes[i]
		}
		out = append(out, fmt.Sprintf("%s=%q", name, p))
	}
	return strings.Join(out, ", ")
}
