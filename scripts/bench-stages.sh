#!/usr/bin/env bash
# Each keydesign stage's share of Analyze: BenchmarkAnalyze (a table of one entity) and
# BenchmarkAnalyzeEntities (ten entities) under the CPU profiler, then each stage function's cumulative
# time as a share of keydesign.Analyze's. A stage that calls another stage's helper counts it as its own.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
cd "${repo_root}"

# The functions Analyze calls, in the order it calls them (internal/keydesign/analyze.go).
stages=(
  model.Build measured.Validate cost.Validate replicas.Validate capacity.EntityDemand keydesign.tableView
  patterns.Validate migration.Validate model.State patterns.Match replicas.Facts patterns.HotReads capacity.Table
  patterns.Finish capacity.Keys capacity.EntityKeys capacity.BusiestPerShard capacity.Indexes measured.Facts
  patterns.IndexReads capacity.Collection migration.Layout cost.Estimate migration.Facts capacity.Names
  'keydesign.(*results).document' keydesign.checkFinite
)

go test -c -trimpath -o "${work}/keydesign.test" ./internal/keydesign
for bench in BenchmarkAnalyze BenchmarkAnalyzeEntities; do
  "${work}/keydesign.test" -test.run '^$' -test.bench "^${bench}\$" -test.benchtime "${BENCHTIME:-10s}" \
    -test.cpuprofile "${work}/${bench}.pprof" >/dev/null
  go tool pprof -top -cum -nodecount=100000 "${work}/keydesign.test" "${work}/${bench}.pprof" 2>/dev/null >"${work}/${bench}.top"
  echo "${bench}: each stage's share of keydesign.Analyze (cumulative CPU time)"
  awk -v list="${stages[*]}" '
    # pprof -top -cum columns: flat flat% sum% cum cum% name; cum is column 4 with its unit.
    function seconds(v) {
      if (v ~ /ms$/) return substr(v, 1, length(v) - 2) / 1000
      if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000000
      if (v ~ /s$/) return substr(v, 1, length(v) - 1) + 0
      return v + 0
    }
    BEGIN { n = split(list, order, " ") }
    {
      name = $6
      sub(/^.*\/internal\/keydesign\//, "", name)
      sub(/^.*\/internal\//, "", name)
      if (name == "keydesign.Analyze") total = seconds($4)
      cum[name] += seconds($4)
    }
    END {
      if (total <= 0) { print "  no samples of keydesign.Analyze"; exit 1 }
      for (i = 1; i <= n; i++) printf "  %-32s %5.1f%%\n", order[i], 100 * cum[order[i]] / total
    }' "${work}/${bench}.top"
done
