package capacity

import (
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

func TestWriteUnitsPerWrite(t *testing.T) {
	tests := []struct {
		name          string
		size          int64
		transactional bool
		want          float64
	}{
		{"1 byte rounds up to one unit", 1, false, 1},
		{"exactly 1 KB is one unit", 1024, false, 1},
		{"1 KB + 1 byte is two units", 1025, false, 2},
		{"AWS example: 1.6 KB write costs 2 WCU", 1638, false, 2},
		{"AWS example: 2 KB transactional write costs 4 WCU", 2048, true, 4},
		{"400 KB item", model.MaxItemSizeBytes, false, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WriteUnitsPerWrite(tt.size, tt.transactional); got != tt.want {
				t.Errorf("WriteUnitsPerWrite(%d, %v) = %v, want %v", tt.size, tt.transactional, got, tt.want)
			}
		})
	}
}

func TestReadUnitsPerRead(t *testing.T) {
	tests := []struct {
		name        string
		size        int64
		consistency model.ReadConsistency
		want        float64
	}{
		{"AWS example: 8 KB strong read costs 2 RCU", 8192, model.ReadStrong, 2},
		{"AWS example: 8 KB eventual read costs 1 RCU", 8192, model.ReadEventual, 1},
		{"AWS example: 8 KB transactional read costs 4 RCU", 8192, model.ReadTransactional, 4},
		{"empty consistency means eventual", 4096, "", 0.5},
		{"4 KB + 1 byte strong is two units", 4097, model.ReadStrong, 2},
		{"small eventual read is half a unit", 100, model.ReadEventual, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadUnitsPerRead(tt.size, tt.consistency)
			if err != nil || got != tt.want {
				t.Errorf("ReadUnitsPerRead(%d, %q) = %v, %v; want %v", tt.size, tt.consistency, got, err, tt.want)
			}
		})
	}
	if _, err := ReadUnitsPerRead(1, "linearizable"); err == nil {
		t.Error("an unknown consistency must be an error")
	}
}

func TestRequiredShards(t *testing.T) {
	tests := []struct {
		name        string
		hotW, hotR  float64
		utilization float64
		want        int64
	}{
		{"no traffic needs one shard", 0, 0, 0.8, 1},
		{"exactly 800 WCU at 0.8 fits one shard", 800, 0, 0.8, 1},
		{"801 WCU at 0.8 needs two", 801, 0, 0.8, 2},
		{"2,500 WCU at 0.8 needs 4", 2500, 0, 0.8, 4},
		{"1,000 WCU at full utilisation is one shard", 1000, 0, 1, 1},
		{"1,001 WCU at full utilisation is two", 1001, 0, 1, 2},
		{"reads decide when they need more: 9,000 RCU at 1.0", 100, 9000, 1, 3},
		{"float noise does not round up: 2,400 WCU at 0.8", 2400, 0, 0.8, 3},
		{"invalid utilisation falls back to the default", 801, 0, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RequiredShards(tt.hotW, tt.hotR, tt.utilization); got != tt.want {
				t.Errorf("RequiredShards(%v, %v, %v) = %d, want %d", tt.hotW, tt.hotR, tt.utilization, got, tt.want)
			}
		})
	}
}
