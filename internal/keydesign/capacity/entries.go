package capacity

import (
	"github.com/dynamokeys/terraform-provider-dynamokeys/internal/keydesign/model"
)

// ProjectedEntryBytes is an index entry's size: ALL projects the item; KEYS_ONLY the table's and the
// index's keys; INCLUDE the keys and each included attribute (its name and a value of the limits'
// default_id_max_length), never more
// than the item.
func ProjectedEntryBytes(projection string, itemBytes, keyBytes int64, nonKey []string) int64 {
	switch projection {
	case model.ProjectionKeysOnly:
		return min(itemBytes, keyBytes)
	case model.ProjectionInclude:
		n := keyBytes
		for _, a := range nonKey {
			n += int64(len(a)) + model.DefaultIDMaxLength // a projected value's size is unknown: bound it like an id's
		}
		return min(itemBytes, n)
	}
	return itemBytes
}
