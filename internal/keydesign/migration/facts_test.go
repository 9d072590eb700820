package migration

import (
	"fmt"
	"testing"

	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

func TestMovedResidues(t *testing.T) {
	for _, c := range []struct{ from, to, want int64 }{{4, 8, 4}, {8, 4, 4}, {3, 4, 4}, {2, 4, 2}, {4, 16, 12}} {
		if got := movedResidues(c.from, c.to); got != c.want {
			t.Errorf("%d → %d shards: moved ids land on %d shards, want %d", c.from, c.to, got, c.want)
		}
	}
	// Checked against the routing itself: the ids whose suffix changes from 4 to 8 shards use 4 suffixes.
	seen := map[int64]bool{}
	for i := range 10000 {
		id := fmt.Sprintf("event-%d", i)
		if model.Shard(id, 4) != model.Shard(id, 8) {
			seen[model.Shard(id, 8)] = true
		}
	}
	if len(seen) != 4 {
		t.Errorf("moved ids land on %d shards", len(seen))
	}
}
