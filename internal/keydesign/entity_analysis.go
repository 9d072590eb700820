package keydesign

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/capacity"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// The entity figures that need the shard count (capacity/entities.go), as stages of the analysis.

// entityKeysStage writes each entity's key facts and own demand and each collection's demand per shard.
func (a *analyzer) entityKeysStage(doc *model.Document) {
	capacity.EntityKeys(a.m, doc.Derived.ShardCount, doc.TargetUtilization, a.in.ReplicatedTTLDeletes())
}
