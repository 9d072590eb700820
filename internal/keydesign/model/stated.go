package model

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
	// Unknown lists the input paths not known at plan time, sorted.
	Unknown []string
}
