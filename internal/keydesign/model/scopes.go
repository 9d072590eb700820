package model

import "slices"

// Scope is one kind of item a design writes, as the later stages iterate them: an entity of a single-table
// design, or, for a design without entities, the one implicit entity whose items carry the table's templates
// and traffic. The Document states the implicit entity nowhere (derived.entities is absent without entities),
// so a stage that reads a design's items through its scopes reads the table's own templates for it.
type Scope struct {
	// Name is the entity's; "" for the implicit entity of a design without entities.
	Name string
	// Keys are the templates it writes, by key attribute, as given.
	Keys map[string]string
	// PartitionKey is its parsed template of the table's partition key; nil when it has none, or one not
	// known at plan time.
	PartitionKey *Template
	// KeysUnknown is whether its templates of the table's partition key are not known at plan time
	// (entities.<name>.keys; partition_key.template for the implicit entity).
	KeysUnknown bool
	// Indexes are the LSIs and GSIs an entity's items carry: those whose every key attribute it writes. The
	// implicit entity's items carry every index (item_share states their share): see Carries.
	Indexes []string
}

// Carries reports whether the scope's items carry the index's keys.
func (s *Scope) Carries(index string) bool { return s.Name == "" || slices.Contains(s.Indexes, index) }

// scopes are the model's scopes: each entity's, in name order, or the implicit entity's; nil for a design
// with entities whose model is incomplete.
func (m *Model) scopes() []Scope {
	in := m.Input
	if m.Entities != nil {
		out := make([]Scope, len(in.Entities))
		for i, e := range in.Entities {
			out[i] = Scope{Name: e.Name, Keys: e.Keys, PartitionKey: m.Entities.Templates[i][m.Entities.TableKeys[0]],
				KeysUnknown: len(m.Unknown) > 0 && m.IsUnknown(Path{"entities", e.Name, "keys"}.String()), Indexes: m.Entities.Doc.Items[i].Indexes}
		}
		return out
	}
	if len(in.Entities) > 0 {
		return nil
	}
	keys := map[string]string{}
	if t := in.PartitionKey.Template; t != nil {
		keys[in.PartitionKey.Name] = *t
	}
	if sk := in.SortKey; sk != nil && sk.Template != nil {
		keys[sk.Name] = *sk.Template
	}
	m.implicit[0] = Scope{Keys: keys, PartitionKey: m.PartitionKey, KeysUnknown: m.IsUnknown("partition_key.template")}
	return m.implicit[:]
}

// IDChars is what an id segment without declared characters may hold: the entity model's (IDCharacters),
// any byte but NUL for a design without entities.
func (m *Model) IDChars() ByteSet {
	if m.Entities != nil {
		return m.Entities.IDChars
	}
	return AnyByte.Without(Single(0))
}
