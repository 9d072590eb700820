package dynamo

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// flattenTable maps a TableDescription to a Table. Settings DescribeTable does not carry (TTL, PITR, Contributor Insights, tags)
// are filled in by FindTable.
func flattenTable(d *types.TableDescription) *Table {
	t := &Table{
		Name:               aws.ToString(d.TableName),
		ARN:                aws.ToString(d.TableArn),
		Status:             string(d.TableStatus),
		BillingMode:        BillingProvisioned,
		TableClass:         TableClassStandard,
		DeletionProtection: d.DeletionProtectionEnabled,
	}
	t.ItemCount, t.SizeBytes = d.ItemCount, d.TableSizeBytes
	if d.BillingModeSummary != nil && d.BillingModeSummary.BillingMode != "" {
		t.BillingMode = string(d.BillingModeSummary.BillingMode)
	}
	if d.TableClassSummary != nil && d.TableClassSummary.TableClass != "" {
		t.TableClass = string(d.TableClassSummary.TableClass)
	}
	if t.BillingMode == BillingProvisioned && d.ProvisionedThroughput != nil {
		t.ReadCapacity = reportedUnits(d.ProvisionedThroughput.ReadCapacityUnits)
		t.WriteCapacity = reportedUnits(d.ProvisionedThroughput.WriteCapacityUnits)
	}
	if d.StreamSpecification != nil && aws.ToBool(d.StreamSpecification.StreamEnabled) {
		t.Stream = &Stream{Enabled: true, ViewType: string(d.StreamSpecification.StreamViewType)}
		t.StreamARN, t.StreamLabel = aws.ToString(d.LatestStreamArn), aws.ToString(d.LatestStreamLabel)
	} else {
		t.Stream = &Stream{}
	}
	if e := d.SSEDescription; e != nil && (e.Status == types.SSEStatusEnabled || e.Status == types.SSEStatusEnabling || e.Status == types.SSEStatusUpdating) {
		t.Encryption = &Encryption{Enabled: true, KMSKeyARN: aws.ToString(e.KMSMasterKeyArn)}
	}
	if o := d.OnDemandThroughput; o != nil {
		read, write := cappedUnits(o.MaxReadRequestUnits), cappedUnits(o.MaxWriteRequestUnits)
		if read != nil || write != nil {
			t.OnDemand = &Throughput{Read: read, Write: write}
		}
	}
	if w := d.WarmThroughput; w != nil && (w.ReadUnitsPerSecond != nil || w.WriteUnitsPerSecond != nil) {
		t.Warm = &Throughput{Read: w.ReadUnitsPerSecond, Write: w.WriteUnitsPerSecond}
	}
	types_ := map[string]string{}
	for _, def := range d.AttributeDefinitions {
		types_[aws.ToString(def.AttributeName)] = string(def.AttributeType)
	}
	partition, sort := flattenKeySchema(d.KeySchema, types_)
	if len(partition) > 0 {
		t.PartitionKey = partition[0]
	}
	if len(sort) > 0 {
		t.SortKey = &sort[0]
	}
	for _, l := range d.LocalSecondaryIndexes {
		_, sortKey := flattenKeySchema(l.KeySchema, types_)
		t.LSIs = append(t.LSIs, Index{Name: aws.ToString(l.IndexName), SortKey: sortKey, ProjectionType: projectionType(l.Projection),
			NonKeyAttributes: nonKeyAttributes(l.Projection)})
	}
	for _, g := range d.GlobalSecondaryIndexes {
		partition, sort := flattenKeySchema(g.KeySchema, types_)
		idx := Index{Name: aws.ToString(g.IndexName), PartitionKey: partition, SortKey: sort, ProjectionType: projectionType(g.Projection),
			NonKeyAttributes: nonKeyAttributes(g.Projection), Status: string(g.IndexStatus)}
		if t.BillingMode == BillingProvisioned && g.ProvisionedThroughput != nil {
			idx.ReadCapacity = reportedUnits(g.ProvisionedThroughput.ReadCapacityUnits)
			idx.WriteCapacity = reportedUnits(g.ProvisionedThroughput.WriteCapacityUnits)
		}
		if o := g.OnDemandThroughput; o != nil {
			read, write := cappedUnits(o.MaxReadRequestUnits), cappedUnits(o.MaxWriteRequestUnits)
			if read != nil || write != nil {
				idx.OnDemand = &Throughput{Read: read, Write: write}
			}
		}
		if w := g.WarmThroughput; w != nil && (w.ReadUnitsPerSecond != nil || w.WriteUnitsPerSecond != nil) {
			idx.Warm = &Throughput{Read: w.ReadUnitsPerSecond, Write: w.WriteUnitsPerSecond}
		}
		t.GSIs = append(t.GSIs, idx)
	}
	for _, v := range d.VectorIndexes {
		t.VectorIndexes = append(t.VectorIndexes, flattenVectorIndex(v, types_))
	}
	return t
}

// flattenVectorIndex reads a vector index of DescribeTable, its search-schema attributes typed from the
// table's AttributeDefinitions. Its item count and size are left out: DynamoDB refreshes them about every six
// hours, and nothing here decides on them.
func flattenVectorIndex(d types.VectorIndexDescription, attributeTypes map[string]string) VectorIndex {
	v := VectorIndex{Name: aws.ToString(d.IndexName), Dimensions: aws.ToInt64(d.Dimensions), DistanceFunction: string(d.DistanceFunction),
		ProjectionType: projectionType(d.Projection), NonKeyAttributes: nonKeyAttributes(d.Projection),
		Status: string(d.IndexStatus), Backfilling: aws.ToBool(d.Backfilling)}
	if d.VectorAttribute != nil {
		v.VectorAttribute = aws.ToString(d.VectorAttribute.AttributeName)
	}
	for _, e := range d.SearchSchema {
		k := KeyAttribute{Name: aws.ToString(e.AttributeName), Type: attributeTypes[aws.ToString(e.AttributeName)]}
		if e.SearchSchemaElementType == types.SearchSchemaElementTypeHash {
			v.PartitionKey = &k
		} else {
			v.InlineFilters = append(v.InlineFilters, k)
		}
	}
	return v
}

// flattenKeySchema splits a key schema into its HASH and RANGE attributes, in order.
func flattenKeySchema(schema []types.KeySchemaElement, attributeTypes map[string]string) (partition, sort []KeyAttribute) {
	for _, k := range schema {
		attr := KeyAttribute{Name: aws.ToString(k.AttributeName), Type: attributeTypes[aws.ToString(k.AttributeName)]}
		if k.KeyType == types.KeyTypeHash {
			partition = append(partition, attr)
		} else {
			sort = append(sort, attr)
		}
	}
	return partition, sort
}

func projectionType(p *types.Projection) string {
	if p == nil {
		return projectionOrDefault("")
	}
	return projectionOrDefault(string(p.ProjectionType))
}

func nonKeyAttributes(p *types.Projection) []string {
	if p == nil || p.ProjectionType != types.ProjectionTypeInclude {
		return nil
	}
	return p.NonKeyAttributes
}

// cappedUnits treats -1 (and 0, as some local servers answer) as "no cap".
func cappedUnits(units *int64) *int64 {
	if units == nil || *units <= 0 {
		return nil
	}
	return units
}

// reportedUnits treats 0 capacity units as not reported: provisioned capacity is at least 1 on DynamoDB, and
// some compatible stores answer 0 for index capacity they do not track.
func reportedUnits(units *int64) *int64 {
	if units == nil || *units == 0 {
		return nil
	}
	return units
}
