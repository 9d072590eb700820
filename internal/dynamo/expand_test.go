package dynamo

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
)

func table() Table {
	return Table{
		Name: "orders", BillingMode: BillingPayPerRequest,
		PartitionKey: KeyAttribute{Name: "pk", Type: "S"},
		SortKey:      &KeyAttribute{Name: "sk", Type: "S"},
		LSIs:         []Index{{Name: "by_created", SortKey: []KeyAttribute{{Name: "created", Type: "N"}}, ProjectionType: "KEYS_ONLY"}},
		GSIs: []Index{
			{Name: "by_customer", PartitionKey: []KeyAttribute{{Name: "customerId", Type: "S"}}, SortKey: []KeyAttribute{{Name: "created", Type: "N"}}},
			{Name: "by_tenant_region", PartitionKey: []KeyAttribute{{Name: "tenantId", Type: "S"}, {Name: "region", Type: "S"}},
				ProjectionType: "INCLUDE", NonKeyAttributes: []string{"total"}},
		},
	}
}

func TestAttributeDefinitionsAreDerivedFromKeys(t *testing.T) {
	in := expandCreateTable(table())
	var got []string
	for _, d := range in.AttributeDefinitions {
		got = append(got, aws.ToString(d.AttributeName)+":"+string(d.AttributeType))
	}
	if strings.Join(got, ",") != "created:N,customerId:S,pk:S,region:S,sk:S,tenantId:S" {
		t.Errorf("attribute definitions = %v", got)
	}
	multi := in.GlobalSecondaryIndexes[1].KeySchema
	if len(multi) != 2 || multi[0].KeyType != "HASH" || multi[1].KeyType != "HASH" {
		t.Errorf("multi-attribute GSI key schema = %+v", multi)
	}
	if in.ProvisionedThroughput != nil || in.GlobalSecondaryIndexes[0].ProvisionedThroughput != nil {
		t.Error("an on-demand table must not send provisioned throughput")
	}
}

func TestDiffGSIsTouchesOnlyChangedIndexes(t *testing.T) {
	old, want := table(), table()
	want.GSIs[1].NonKeyAttributes = []string{"total", "currency"} // projection change: delete + create
	want.GSIs = append(want.GSIs, Index{Name: "by_status", PartitionKey: []KeyAttribute{{Name: "status", Type: "S"}}})
	deletes, creates, throughput := diffGSIs(old, want)
	if len(deletes) != 1 || deletes[0].Name != "by_tenant_region" {
		t.Errorf("deletes = %+v", deletes)
	}
	if len(creates) != 2 || creates[0].Name != "by_status" || creates[1].Name != "by_tenant_region" {
		t.Errorf("creates = %+v", creates)
	}
	if len(throughput) != 0 {
		t.Errorf("throughput updates on an on-demand table: %+v", throughput)
	}
}

func TestDiffGSIsUpdatesCapacityInPlace(t *testing.T) {
	old, want := table(), table()
	for _, tb := range []*Table{&old, &want} {
		tb.BillingMode = BillingProvisioned
		for i := range tb.GSIs {
			tb.GSIs[i].ReadCapacity, tb.GSIs[i].WriteCapacity = aws.Int64(5), aws.Int64(5)
		}
	}
	want.GSIs[0].WriteCapacity = aws.Int64(50)
	deletes, creates, throughput := diffGSIs(old, want)
	if len(deletes)+len(creates) != 0 || len(throughput) != 1 || aws.ToString(throughput[0].Update.IndexName) != "by_customer" {
		t.Errorf("deletes %v creates %v throughput %v", deletes, creates, throughput)
	}
}

func TestTableSettingsUpdate(t *testing.T) {
	old := table()
	if in := tableSettingsUpdate(old, old, nil); in != nil {
		t.Errorf("no change must send no UpdateTable: %+v", in)
	}
	want := table()
	want.BillingMode, want.ReadCapacity, want.WriteCapacity = BillingProvisioned, aws.Int64(10), aws.Int64(20)
	want.DeletionProtection = aws.Bool(true)
	in := tableSettingsUpdate(old, want, nil)
	if in == nil || in.BillingMode != "PROVISIONED" || aws.ToInt64(in.ProvisionedThroughput.WriteCapacityUnits) != 20 || !aws.ToBool(in.DeletionProtectionEnabled) {
		t.Errorf("update = %+v", in)
	}
}
