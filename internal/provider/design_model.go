package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// designInputModel holds the design shapes shared by the data source and the resource. Nested values stay framework values so that
// unknowns at plan time can be told apart from nulls.
type designInputModel struct {
	PartitionKey           types.Object `tfsdk:"partition_key"`
	SortKey                types.Object `tfsdk:"sort_key"`
	Segments               types.Map    `tfsdk:"segments"`
	Sharding               types.Object `tfsdk:"sharding"`
	Traffic                types.Object `tfsdk:"traffic"`
	TargetUtilization      types.Number `tfsdk:"target_utilization"`
	LocalSecondaryIndexes  types.Map    `tfsdk:"local_secondary_indexes"`
	GlobalSecondaryIndexes types.Map    `tfsdk:"global_secondary_indexes"`
	VectorIndexes          types.Map    `tfsdk:"vector_indexes"`
	Enforce                types.Bool   `tfsdk:"enforce"`
	Observed               types.Object `tfsdk:"observed"`
	ObservedIndexes        types.Map    `tfsdk:"observed_indexes"`
	Pricing                types.Object `tfsdk:"pricing"`
	AccessPatterns         types.Map    `tfsdk:"access_patterns"`
	Entities               types.Map    `tfsdk:"entities"`
	Migration              types.Object `tfsdk:"migration"`
	Replicas               types.Object `tfsdk:"replicas"`
}

type keyModel struct {
	Name     types.String `tfsdk:"name"`
	Type     types.String `tfsdk:"type"`
	Template types.String `tfsdk:"template"`
}

type indexKeyModel struct {
	Name types.String `tfsdk:"name"`
	Type types.String `tfsdk:"type"`
}

type gsiKeyModel struct {
	Name        types.String `tfsdk:"name"`
	Type        types.String `tfsdk:"type"`
	Cardinality types.Number `tfsdk:"cardinality"`
}

type lsiModel struct {
	SortKey          types.Object `tfsdk:"sort_key"`
	ProjectionType   types.String `tfsdk:"projection_type"`
	NonKeyAttributes types.List   `tfsdk:"non_key_attributes"`
}

type gsiModel struct {
	PartitionKey     types.List   `tfsdk:"partition_key"`
	SortKey          types.List   `tfsdk:"sort_key"`
	ProjectionType   types.String `tfsdk:"projection_type"`
	NonKeyAttributes types.List   `tfsdk:"non_key_attributes"`
	ReadCapacity     types.Number `tfsdk:"read_capacity"`
	WriteCapacity    types.Number `tfsdk:"write_capacity"`

	OnDemandThroughput  types.Object `tfsdk:"on_demand_throughput"`
	WarmThroughput      types.Object `tfsdk:"warm_throughput"`
	ContributorInsights types.Object `tfsdk:"contributor_insights"`
	Autoscaling         types.Object `tfsdk:"autoscaling"`
}
