#!/usr/bin/env node
// Regenerates internal/keydesign/model/testdata/routing_vectors.json: expected shard numbers and suffixes
// computed with the Node.js calculated-suffix scheme that application code uses:
//   createHash("sha256").update(id).digest().readUInt32BE(0) % count, padStart(width, "0").
// Usage: node scripts/routing-vectors.js > internal/keydesign/model/testdata/routing_vectors.json
"use strict";
const { createHash } = require("crypto");

const ids = [
  "", "a", "A", "0", "1", "42", "user-1", "user-2", "customer#123", "ORDER#2024-01-01#7",
  "event_0001", "event_0002", "event_9999", "tenant-acme", "tenant-globex", " ", "  leading",
  "trailing  ", "tab\there", "new\nline", "quote\"d", "back\\slash", "emoji-🚀", "日本語キー",
  "Ünïcödé", "ß", "Ελληνικά", "עברית", "العربية", "中文", "🙂🙃", "e\u0301 (combining)",
  "null\u0000byte", "x".repeat(64), "y".repeat(255), "z".repeat(1024), "k".repeat(2048),
  "0123456789".repeat(10), "550e8400-e29b-41d4-a716-446655440000", "01HZY3M5Q8W1V8M2Q6X9T0R4BZ",
  "s3://bucket/key", "https://example.com/path?q=1", "DAY#2026-11-30", "SHARD#07", "42.5", "-1",
  "1e10", "{shard}", "${not_interpolated}", "Mixed Case ID", "last-id",
];
const counts = [1, 2, 3, 7, 10, 16, 100, 1000];

const vectors = [];
for (const id of ids) {
  const h = createHash("sha256").update(id).digest().readUInt32BE(0);
  for (const count of counts) {
    const shard = h % count;
    const width = Math.max(1, String(count - 1).length);
    vectors.push({ id, count, shard, suffix: String(shard).padStart(width, "0") });
  }
}
process.stdout.write(JSON.stringify({ scheme: "sha256-be32-mod", generator: "scripts/routing-vectors.js", vectors }, null, 1) + "\n");
