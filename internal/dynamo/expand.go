package dynamo

import (
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// attributeDefinitions derives the AttributeDefinitions CreateTable and UpdateTable need from the key
// attributes of the table and its indexes and the search-schema attributes of its vector indexes (DynamoDB
// requires those defined like keys; the vector attribute itself is a list and is never defined): every
// definition is used. That one name has one type is the design's rule, checked before any call (keydesign's
// validation fails the plan otherwise).
func attributeDefinitions(t Table) []types.AttributeDefinition {
	byName := map[string]string{t.PartitionKey.Name: t.PartitionKey.Type}
	if t.SortKey != nil {
		byName[t.SortKey.Name] = t.SortKey.Type
	}
	for _, idx := range slices.Concat(t.LSIs, t.GSIs) {
		for _, k := range slices.Concat(idx.PartitionKey, idx.SortKey) {
			byName[k.Name] = k.Type
		}
	}
	for _, v := range t.VectorIndexes {
		for _, k := range v.searchAttributes() {
			byName[k.Name] = k.Type
		}
	}
	defs := make([]types.AttributeDefinition, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		defs = append(defs, types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeType(byName[name])})
	}
	return defs
}

func keySchema(partition, sort []KeyAttribute) []types.KeySchemaElement {
	schema := make([]types.KeySchemaElement, 0, len(partition)+len(sort))
	for _, k := range partition {
		schema = append(schema, types.KeySchemaElement{AttributeName: aws.String(k.Name), KeyType: types.KeyTypeHash})
	}
	for _, k := range sort {
		schema = append(schema, types.KeySchemaElement{AttributeName: aws.String(k.Name), KeyType: types.KeyTypeRange})
	}
	return schema
}

func expandProjection(idx Index) *types.Projection {
	p := &types.Projection{ProjectionType: types.ProjectionType(projectionOrDefault(idx.ProjectionType))}
	if p.ProjectionType == types.ProjectionTypeInclude {
		p.NonKeyAttributes = idx.NonKeyAttributes
	}
	return p
}

func expandThroughput(read, write *int64) *types.ProvisionedThroughput {
	if read == nil || write == nil {
		return nil
	}
	return &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(*read), WriteCapacityUnits: aws.Int64(*write)}
}

func expandGSI(t Table, idx Index) types.GlobalSecondaryIndex {
	g := types.GlobalSecondaryIndex{
		IndexName:  aws.String(idx.Name),
		KeySchema:  keySchema(idx.PartitionKey, idx.SortKey),
		Projection: expandProjection(idx),
	}
	if t.BillingMode == BillingProvisioned {
		g.ProvisionedThroughput = expandThroughput(idx.ReadCapacity, idx.WriteCapacity)
	}
	if idx.OnDemand != nil && t.BillingMode == BillingPayPerRequest {
		g.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: idx.OnDemand.Read, MaxWriteRequestUnits: idx.OnDemand.Write}
	}
	if idx.Warm != nil {
		g.WarmThroughput = expandWarm(*idx.Warm)
	}
	return g
}

// searchAttributes are the index's search-schema attributes: the HASH first, then the inline filters.
func (v VectorIndex) searchAttributes() []KeyAttribute {
	var out []KeyAttribute
	if v.PartitionKey != nil {
		out = append(out, *v.PartitionKey)
	}
	return append(out, v.InlineFilters...)
}

// expandVectorIndex is the index as CreateTable takes it.
func expandVectorIndex(v VectorIndex) types.VectorIndex {
	out := types.VectorIndex{
		IndexName:        aws.String(v.Name),
		VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String(v.VectorAttribute)},
		Dimensions:       aws.Int64(v.Dimensions),
		DistanceFunction: types.VectorDistanceFunction(v.DistanceFunction),
		Projection:       expandProjection(Index{ProjectionType: v.ProjectionType, NonKeyAttributes: v.NonKeyAttributes}),
	}
	if v.PartitionKey != nil {
		out.SearchSchema = append(out.SearchSchema, types.SearchSchemaElement{AttributeName: aws.String(v.PartitionKey.Name),
			SearchSchemaElementType: types.SearchSchemaElementTypeHash})
	}
	for _, f := range v.InlineFilters {
		out.SearchSchema = append(out.SearchSchema, types.SearchSchemaElement{AttributeName: aws.String(f.Name),
			SearchSchemaElementType: types.SearchSchemaElementTypeInlineFilter})
	}
	return out
}

// createVectorIndexAction is the UpdateTable action that adds v to a live table, as CreateTable would.
func createVectorIndexAction(v VectorIndex) *types.CreateVectorIndexAction {
	x := expandVectorIndex(v)
	return &types.CreateVectorIndexAction{IndexName: x.IndexName, VectorAttribute: x.VectorAttribute, Dimensions: x.Dimensions,
		DistanceFunction: x.DistanceFunction, Projection: x.Projection, SearchSchema: x.SearchSchema}
}

func expandTags(tags map[string]string) []types.Tag {
	out := make([]types.Tag, 0, len(tags))
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		out = append(out, types.Tag{Key: aws.String(k), Value: aws.String(tags[k])})
	}
	return out
}

// expandCreateTable builds the CreateTable call for t.
func expandCreateTable(t Table) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		TableName:                 aws.String(t.Name),
		AttributeDefinitions:      attributeDefinitions(t),
		BillingMode:               types.BillingMode(t.BillingMode),
		DeletionProtectionEnabled: t.DeletionProtection,
	}
	if t.TableClass != "" {
		in.TableClass = types.TableClass(t.TableClass)
	}
	var sortKey []KeyAttribute
	if t.SortKey != nil {
		sortKey = []KeyAttribute{*t.SortKey}
	}
	in.KeySchema = keySchema([]KeyAttribute{t.PartitionKey}, sortKey)
	if t.BillingMode == BillingProvisioned {
		in.ProvisionedThroughput = expandThroughput(t.ReadCapacity, t.WriteCapacity)
	}
	for _, idx := range t.LSIs {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{
			IndexName:  aws.String(idx.Name),
			KeySchema:  keySchema([]KeyAttribute{t.PartitionKey}, idx.SortKey),
			Projection: expandProjection(idx),
		})
	}
	for _, idx := range t.GSIs {
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, expandGSI(t, idx))
	}
	for _, v := range t.VectorIndexes {
		in.VectorIndexes = append(in.VectorIndexes, expandVectorIndex(v))
	}
	if len(t.Tags) > 0 {
		in.Tags = expandTags(t.Tags)
	}
	if t.Stream != nil && t.Stream.Enabled {
		in.StreamSpecification = expandStream(*t.Stream)
	}
	if t.Encryption != nil && t.Encryption.Enabled {
		in.SSESpecification = expandEncryption(*t.Encryption)
	}
	if t.OnDemand != nil && t.BillingMode == BillingPayPerRequest {
		in.OnDemandThroughput = &types.OnDemandThroughput{MaxReadRequestUnits: t.OnDemand.Read, MaxWriteRequestUnits: t.OnDemand.Write}
	}
	if t.Warm != nil {
		in.WarmThroughput = expandWarm(*t.Warm)
	}
	return in
}

func expandStream(s Stream) *types.StreamSpecification {
	spec := &types.StreamSpecification{StreamEnabled: aws.Bool(s.Enabled)}
	if s.Enabled {
		spec.StreamViewType = types.StreamViewType(s.ViewType)
	}
	return spec
}

func expandEncryption(e Encryption) *types.SSESpecification {
	spec := &types.SSESpecification{Enabled: aws.Bool(e.Enabled)}
	if e.Enabled {
		spec.SSEType = types.SSETypeKms
		if e.KMSKeyARN != "" {
			spec.KMSMasterKeyId = aws.String(e.KMSKeyARN)
		}
	}
	return spec
}

// expandOnDemand is an update's caps: -1 for a side without a cap removes it (DynamoDB's "no maximum").
// A create leaves such a side out instead: DynamoDB accepts -1 only to remove a cap.
func expandOnDemand(t Throughput) *types.OnDemandThroughput {
	unlimited := int64(-1)
	return &types.OnDemandThroughput{MaxReadRequestUnits: aws.Int64(unitsOr(t.Read, unlimited)), MaxWriteRequestUnits: aws.Int64(unitsOr(t.Write, unlimited))}
}

func expandWarm(t Throughput) *types.WarmThroughput {
	return &types.WarmThroughput{ReadUnitsPerSecond: t.Read, WriteUnitsPerSecond: t.Write}
}

func unitsOr(p *int64, fallback int64) int64 {
	if p == nil {
		return fallback
	}
	return *p
}
