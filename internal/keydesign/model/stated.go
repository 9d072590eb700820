package model

import (
	"cmp"
	"slices"
)

// Stated is the design as written, defaults applied: the part of the Document that no stage derives. The
// facade builds it once, before the stages run, and every stage that reads the table, the traffic or the
// sharding as stated reads it here; the Document copies it when it is assembled.
type Stated struct {
	Kind              string
	Address           string
	Table             TableDoc
	Segments          map[string]ResolvedSegment
	Sharding          ShardingDoc
	Traffic           TrafficDoc
	TargetUtilization float64
	Prior             *Document
	Change            *Change
	// Unknown lists the input paths not known at plan time, sorted.
	Unknown []string
}

// State is the design as written with its defaults: kind, segments, sharding, the table, and traffic, the
// table's traffic (a single-table design's entities' together: capacity.Traffic).
func State(m *Model, traffic Traffic) *Stated {
	in := m.Input
	st := &Stated{
		Kind:     in.Kind,
		Address:  in.Address,
		Segments: m.Segments,
		Prior:    in.Prior,
		Change:   in.Change,
		Unknown:  make([]string, 0, len(m.Unknown)),
	}
	for p := range m.Unknown {
		st.Unknown = append(st.Unknown, p)
	}
	slices.Sort(st.Unknown)
	st.TargetUtilization = DefaultTargetUtilization
	if in.TargetUtilization != nil {
		st.TargetUtilization = *in.TargetUtilization
	}
	st.Sharding = ShardingDoc{Strategy: cmp.Or(in.Sharding.Strategy, StrategyNone), Source: in.Sharding.Source,
		Count: in.Sharding.Count, SchemeVersion: DefaultSchemeVersion}
	if in.Sharding.SchemeVersion != nil {
		st.Sharding.SchemeVersion = *in.Sharding.SchemeVersion
	}
	t := traffic
	st.Traffic = TrafficDoc{
		WritesPerSecond: t.WritesPerSecond, ReadsPerSecond: t.ReadsPerSecond,
		ItemSizeBytes: DefaultItemSizeBytes, ReadConsistency: cmp.Or(t.ReadConsistency, string(ReadEventual)),
		TransactionalWrites: t.TransactionalWrites, HotKeyShare: t.HotKeyShare,
		HottestItemWritesPerSecond: t.HottestItemWritesPerSecond, HottestItemReadsPerSecond: t.HottestItemReadsPerSecond,
		MaxItemsPerPartitionKey: t.MaxItemsPerPartitionKey,
	}
	if t.ItemSizeBytes != nil {
		st.Traffic.ItemSizeBytes = *t.ItemSizeBytes
	}
	st.Table = tableDoc(in)
	return st
}

func tableDoc(in *Input) TableDoc {
	td := TableDoc{
		Name: in.TableName, BillingMode: in.BillingMode, ReadCapacity: in.ReadCapacity, WriteCapacity: in.WriteCapacity,
		OnDemandThroughput: in.OnDemand, WarmThroughput: in.Warm, Autoscaling: in.Autoscaling,
		PartitionKey: KeyDoc{Name: in.PartitionKey.Name, Type: cmp.Or(in.PartitionKey.Type, KeyTypeString), Template: in.PartitionKey.Template},
		LSIs:         make([]LSIDoc, 0, len(in.LocalSecondaryIndexes)),
		GSIs:         make([]GSIDoc, 0, len(in.GlobalSecondaryIndexes)),
	}
	if in.SortKey != nil {
		td.SortKey = &KeyDoc{Name: in.SortKey.Name, Type: cmp.Or(in.SortKey.Type, KeyTypeString), Template: in.SortKey.Template}
	}
	for _, l := range in.LocalSecondaryIndexes {
		td.LSIs = append(td.LSIs, LSIDoc{Name: l.Name, SortKey: indexKeyDoc(l.SortKey),
			ProjectionType: cmp.Or(l.ProjectionType, ProjectionAll), NonKeyAttributes: OrEmpty(l.NonKeyAttributes)})
	}
	for _, g := range in.GlobalSecondaryIndexes {
		gd := GSIDoc{Name: g.Name, ProjectionType: cmp.Or(g.ProjectionType, ProjectionAll),
			NonKeyAttributes: OrEmpty(g.NonKeyAttributes), ReadCapacity: g.ReadCapacity, WriteCapacity: g.WriteCapacity,
			OnDemandThroughput: g.OnDemand, WarmThroughput: g.Warm, Autoscaling: g.Autoscaling,
			PartitionKey: make([]IndexKeyDoc, 0, len(g.PartitionKey)), SortKey: make([]IndexKeyDoc, 0, len(g.SortKey))}
		for _, k := range g.PartitionKey {
			gd.PartitionKey = append(gd.PartitionKey, indexKeyDoc(k))
		}
		for _, k := range g.SortKey {
			gd.SortKey = append(gd.SortKey, indexKeyDoc(k))
		}
		td.GSIs = append(td.GSIs, gd)
	}
	slices.SortFunc(td.LSIs, func(x, y LSIDoc) int { return cmp.Compare(x.Name, y.Name) })
	slices.SortFunc(td.GSIs, func(x, y GSIDoc) int { return cmp.Compare(x.Name, y.Name) })
	return td
}

func indexKeyDoc(k IndexKeyAttribute) IndexKeyDoc {
	return IndexKeyDoc{Name: k.Name, Type: cmp.Or(k.Type, KeyTypeString), Cardinality: k.Cardinality}
}
