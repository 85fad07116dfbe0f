#!/usr/bin/env bash
# `make bench`: every benchmark of the project in a release build, against a private PulseAudio
# server with a null sink, then one table of every figure: median, p99, target, and the baseline
# measured in the same run with the ratio. Each benchmark also prints its own detailed table.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
# The benchmarks are their own package (Benchmarks/Package.swift, on this one by path), so the
# ordinary build never compiles them. The `steppie` they measure is this package's product, built
# by the same release build into Benchmarks/.build beside them (linked as linker/README.md says).
(cd Benchmarks && swift build -c release --static-swift-stdlib && swift build -c release --static-swift-stdlib --product steppie)
bin="$PWD/Benchmarks/.build/release"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
export STEPPIE_BENCH_ROWS="$rows"
# The link layout's staleness: linker/steppie.order must still name the binary's functions (the
# figures below depend on it). Checked first, reported in the table, and failing the run at its end.
link_order=0
python3 scripts/check-link-order.py "$bin/steppie" || link_order=$?
scripts/with-pulse.sh "$bin"/steppie-bench commands startup
scripts/with-pulse.sh "$bin"/steppie-bench-feedback
scripts/with-pulse.sh "$bin"/steppie-bench-service
# Sync's cost (issue 27): presses on a joined device, a completion seen on another device, a new
# device's first copy of the 10-year fixture, the database's size with the sync metadata.
scripts/with-pulse.sh "$bin"/steppie-bench-sync
# A tap in Chromium on the kiosk page vs a Space in the terminal screen (issue 13); then the same
# taps on a device joined to a sync hub (issue 27).
. scripts/browser-env.sh
STEPPIE_BIN="$bin/steppie" SE_OFFLINE=true scripts/with-pulse.sh "$VENV/bin/python" Tests/browser/bench_tap.py 100 --sync
# The centre's hub (issue 28): 500 simulated devices through one and two `steppie hub` processes on a
# private PostgreSQL (started and removed by scripts/with-postgres.sh, as the tests' is), beside one
# `psql` session writing the same rows.
scripts/with-postgres.sh "$bin"/steppie-bench-centre
"$bin"/steppie-bench scale
"$bin"/steppie-bench-backup
echo
echo "## All figures ($(date -u +%Y-%m-%d), $(nproc) cores, release build)"
echo
echo "| area | figure | median | p99 | target | baseline (same run) | baseline median | ratio |"
echo "|---|---|---|---|---|---|---|---|"
while IFS=$'\t' read -r area figure median p99 target baseline bmedian ratio; do
    echo "| $area | $figure | $median | $p99 | $target | $baseline | $bmedian | $ratio |"
done < "$rows"
if [ "$link_order" -ne 0 ]; then
    echo
    echo "bench: linker/steppie.order is stale (see the link order rows above): run scripts/make-link-order.py (linker/README.md)" >&2
    exit "$link_order"
fi
