package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
)

type routingVector struct {
	ID     string `json:"id"`
	Count  int64  `json:"count"`
	Shard  int64  `json:"shard"`
	Suffix string `json:"suffix"`
}

func loadRoutingVectors(tb testing.TB) []routingVector {
	tb.Helper()
	raw, err := os.ReadFile("testdata/routing_vectors.json")
	if err != nil {
		tb.Fatal(err)
	}
	var file struct {
		Vectors []routingVector `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		tb.Fatal(err)
	}
	return file.Vectors
}

// TestShardMatchesNodeVectors checks every vector that Node.js computed with
// createHash("sha256").update(id).digest().readUInt32BE(0) % count.
func TestShardMatchesNodeVectors(t *testing.T) {
	vectors := loadRoutingVectors(t)
	if len(vectors) < 50*6 {
		t.Fatalf("only %d vectors; expected at least 50 ids × 6 counts", len(vectors))
	}
	for _, v := range vectors {
		if got := Shard(v.ID, v.Count); got != v.Shard {
			t.Errorf("Shard(%q, %d) = %d, Node.js says %d", v.ID, v.Count, got, v.Shard)
		}
		if got := ShardSuffix(v.ID, v.Count); got != v.Suffix {
			t.Errorf("ShardSuffix(%q, %d) = %q, Node.js says %q", v.ID, v.Count, got, v.Suffix)
		}
	}
}

// TestRoutingVectorsAreCurrent regenerates the vectors with node, when it is installed, so the committed
// file cannot drift from the script.
func TestRoutingVectorsAreCurrent(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; the committed vectors are still checked by TestShardMatchesNodeVectors")
	}
	out, err := exec.Command(node, "../../../scripts/routing-vectors.js").Output()
	if err != nil {
		t.Fatalf("node scripts/routing-vectors.js: %v", err)
	}
	committed, err := os.ReadFile("testdata/routing_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, committed) {
		t.Error("testdata/routing_vectors.json is stale: run node scripts/routing-vectors.js > internal/keydesign/model/testdata/routing_vectors.json")
	}
}

func TestShardWidthAndSuffixes(t *testing.T) {
	for _, tt := range []struct {
		count      int64
		width      int
		first, end string
	}{
		{1, 1, "0", "0"}, {2, 1, "0", "1"}, {10, 1, "0", "9"}, {11, 2, "00", "10"},
		{16, 2, "00", "15"}, {100, 2, "00", "99"}, {101, 3, "000", "100"}, {1000, 3, "000", "999"},
	} {
		if got := ShardWidth(tt.count); got != tt.width {
			t.Errorf("ShardWidth(%d) = %d, want %d", tt.count, got, tt.width)
		}
		s := ShardSuffixes(tt.count)
		if int64(len(s)) != tt.count || s[0] != tt.first || s[len(s)-1] != tt.end {
			t.Errorf("ShardSuffixes(%d) = %d items %q..%q, want %q..%q", tt.count, len(s), s[0], s[len(s)-1], tt.first, tt.end)
		}
	}
}

func TestShardSuffixAllocatesOnlyTheResult(t *testing.T) {
	id := "a-customer-id-that-is-longer-than-thirty-two-bytes"
	allocs := testing.AllocsPerRun(100, func() { _ = ShardSuffix(id, 1000) })
	if allocs > 1 {
		t.Errorf("ShardSuffix allocates %v times per call; want at most 1 (the result)", allocs)
	}
}

var sink string

func BenchmarkShardSuffix(b *testing.B) {
	id := "customer-550e8400-e29b-41d4-a716-446655440000"
	b.ReportAllocs()
	for b.Loop() {
		sink = ShardSuffix(id, 16)
	}
}

// BenchmarkSHA256Baseline is the bare hash of the same input, the yardstick for BenchmarkShardSuffix.
func BenchmarkSHA256Baseline(b *testing.B) {
	id := []byte("customer-550e8400-e29b-41d4-a716-446655440000")
	b.ReportAllocs()
	var sum [32]byte
	for b.Loop() {
		sum = sha256.Sum256(id)
	}
	sink = string(sum[:1])
}
