package model

import (
	"crypto/sha256"
	"encoding/binary"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// RoutingAlgorithm names the calculated-suffix scheme: SHA-256 of the UTF-8 id, first 4 bytes read
// big-endian as uint32, mod count. It is byte-compatible with Node.js
// createHash("sha256").update(id).digest().readUInt32BE(0) % count.
const RoutingAlgorithm = "sha256-be32-mod"

// Shard returns the shard number of id among count shards. count must be at least 1.
func Shard(id string, count int64) int64 {
	// Hash the string's bytes in place: sha256 only reads them, and a []byte(id) copy would allocate
	// for ids longer than 32 bytes.
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(id), len(id)))
	return int64(uint64(binary.BigEndian.Uint32(sum[:4])) % uint64(count))
}

// ShardWidth is the number of digits of count-1, at least 1: 16 shards → 2 ("00".."15").
func ShardWidth(count int64) int {
	width := 1
	for n := count - 1; n >= 10; n /= 10 {
		width++
	}
	return width
}

// paddedTableWidth is the widest suffix served from paddedTables: counts up to 10,000 shards.
const paddedTableWidth = 4

// paddedTables[w] holds every w-digit zero-padded number back to back ("000102…99" for w = 2), so that a
// suffix is a substring of a string built once: no allocation on the routing hot path. Built when first
// used, as most provider processes route nothing.
var paddedTables = sync.OnceValue(func() [paddedTableWidth + 1]string {
	var tables [paddedTableWidth + 1]string
	n := 1
	for w := 1; w <= paddedTableWidth; w++ {
		n *= 10
		b := make([]byte, n*w)
		for i := range n {
			for d, v := (i+1)*w-1, i; d >= i*w; d, v = d-1, v/10 {
				b[d] = byte('0' + v%10)
			}
		}
		tables[w] = string(b)
	}
	return tables
})

// FormatShard zero-pads shard to width digits, like JavaScript's String(n).padStart(width, "0").
func FormatShard(shard int64, width int) string {
	if width >= 1 && width <= paddedTableWidth && shard >= 0 && ShardWidth(shard+1) <= width {
		start := int(shard) * width
		return paddedTables()[width][start : start+width]
	}
	var digitBuf [20]byte
	digits := strconv.AppendInt(digitBuf[:0], shard, 10)
	pad := max(0, width-len(digits))
	if pad+len(digits) > 32 {
		return strings.Repeat("0", pad) + string(digits)
	}
	// Pad in a stack buffer so the returned string is the only allocation.
	var out [32]byte
	for i := range pad {
		out[i] = '0'
	}
	copy(out[pad:], digits)
	return string(out[:pad+len(digits)])
}

// ShardSuffix is Shard(id, count) zero-padded to ShardWidth(count).
func ShardSuffix(id string, count int64) string {
	return FormatShard(Shard(id, count), ShardWidth(count))
}

// ShardSuffixes lists every suffix for count shards: "00".."15" for 16.
func ShardSuffixes(count int64) []string {
	width := ShardWidth(count)
	out := make([]string, count)
	for i := range out {
		out[i] = FormatShard(int64(i), width)
	}
	return out
}
