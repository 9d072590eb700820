package dynamo

import "testing"

func TestParseTableARN(t *testing.T) {
	for arn, want := range map[string]ARN{
		"arn:aws:dynamodb:us-east-1:111122223333:table/orders":                          {"aws", "us-east-1", "111122223333", "orders"},
		"arn:aws-cn:dynamodb:cn-north-1:111122223333:table/orders/index/by_status":      {"aws-cn", "cn-north-1", "111122223333", "orders"},
		"arn:aws:dynamodb:ddblocal:000000000000:table/events":                           {"aws", "ddblocal", "000000000000", "events"},
		"arn:aws:dynamodb:us-east-1:000000000000:table/a.b-c_d/stream/2026-01-01T00:00": {"aws", "us-east-1", "000000000000", "a.b-c_d"},
	} {
		got, err := ParseTableARN(arn)
		if err != nil || got != want {
			t.Errorf("ParseTableARN(%q) = %+v, %v; want %+v", arn, got, err, want)
		}
	}
	for _, bad := range []string{"", "orders", "arn:aws:s3:::bucket", "arn:aws:dynamodb:us-east-1::table/orders", "arn:aws:dynamodb:us-east-1:111122223333:backup/x"} {
		if got, err := ParseTableARN(bad); err == nil {
			t.Errorf("ParseTableARN(%q) = %+v; want an error", bad, got)
		}
	}
}
