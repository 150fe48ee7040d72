#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/linux/bench-host.sh [PMUBOOT_LINUX]: pmuboot's kernels as ordinary user-space
# benchmarks against the anchors issue 23 names, on this machine's CPU (no PMU needed):
# the pointer chase's latency per working set against multichase (built from the snapshot
# in ../shared/conformance: a judge, never a source) walking the same kind of cycle
# (-s 64, TLB locality -T = the working set), and the store kernels' bandwidth against
# likwid-bench (Debian's likwid: store, store_mem). Medians of 3 runs of each. Prints one
# Markdown table with the ratio per row and whether it meets the goal (chase within 5% of
# multichase's latency; stores at >= 95% of likwid-bench's bandwidth), and writes it to
# build/bench-host.md. A benchmark, not a test: make bench-host, not in make check.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 2
bin=${1:-build/pmuboot-linux}
die() { echo "bench-host: $*" >&2; exit 2; }
[[ -x $bin ]] || die "$bin: not built (make linux)"

tarball=$(ls ../shared/conformance/multichase-*.tar.gz 2>/dev/null | head -n 1)
mc=build/multichase/multichase
if [[ ! -x $mc ]]; then
	[[ -n $tarball ]] || die "no multichase snapshot in ../shared/conformance"
	rm -rf build/multichase && mkdir -p build/multichase &&
		tar xzf "$tarball" -C build/multichase --strip-components=1 &&
		make -s -C build/multichase multichase >/dev/null 2>&1 ||
		die "could not build multichase from $tarball"
fi
if ! command -v likwid-bench >/dev/null; then
	if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq likwid >/dev/null 2>&1
	fi
	command -v likwid-bench >/dev/null || die "likwid-bench missing: apt-get install likwid"
fi

median() { sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}'; }
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
sizes=(16384 262144 1048576 8388608 67108864)
# Every tool on the same CPU, the first this process may use: on a machine with hyper-threads
# or other tenants one CPU can be slower than another (multichase and likwid-bench pin
# themselves to the first CPU they may use; pmuboot-linux binds to the one it starts on).
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
pin=(taskset -c "${cpu:-0}")
command -v taskset >/dev/null || pin=()
for rep in 1 2 3; do
	"${pin[@]}" "$bin" --bench-only >"$tmp/pmuboot.$rep" || die "$bin --bench-only failed"
	for ws in "${sizes[@]}"; do
		"${pin[@]}" "$mc" -s 64 -m "$ws" -T "$ws" -n 3 2>/dev/null | tail -n 1 >>"$tmp/mc.$ws"
	done
	for t in store store_mem; do
		"${pin[@]}" likwid-bench -t "$t" -w N:64MB:1 2>/dev/null |
			awk '/^MByte\/s:/ {print $2}' >>"$tmp/likwid.$t"
	done
done
pm_chase() { cat "$tmp"/pmuboot.* | sed -n "s/^# data: chase_latency ws_bytes=$1 .*ns_per_load=\([0-9.]*\)$/\1/p" | median; }
pm_store() { cat "$tmp"/pmuboot.* | sed -n "s/^# data: store_bandwidth kernel=$1 .*mb_per_s=\([0-9.]*\)$/\1/p" | median; }

met=0 missed=0 suspect=0
row() {	# name pmuboot anchor-name anchor higher-is-better
	local r ok
	r=$(awk -v a="$2" -v b="$4" 'BEGIN {if (a > 0 && b > 0) printf "%.2f", a / b; else print "?"}')
	if [[ $r == "?" ]]; then ok="no figure"
	elif (($5)); then
		# Far faster than the anchor is no win but a question (what does it not do?).
		ok=$(awk -v r="$r" 'BEGIN {print (r > 1.5) ? "suspect: far above the anchor" : (r >= 0.95) ? "yes" : "no"}')
	else ok=$(awk -v r="$r" 'BEGIN {print (r <= 1.05) ? "yes" : "no"}'); fi
	case $ok in yes) met=$((met + 1)) ;; suspect*) suspect=$((suspect + 1)) ;; *) missed=$((missed + 1)) ;; esac
	printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4" "$r" "$ok"
}
{
	echo "bench-host: $(date -u '+%Y-%m-%d'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(uname -r), pmuboot $(git describe --always --dirty 2>/dev/null), all on cpu ${cpu:-0}"
	echo
	echo "| kernel | pmuboot | anchor | anchor's | ratio | meets the goal |"
	echo "|---|---|---|---|---|---|"
	for ws in "${sizes[@]}"; do
		row "chase $((ws / 1024)) KiB (ns per load, goal ratio <= 1.05)" "$(pm_chase "$ws")" \
			"multichase -s 64 -T WS" "$(median <"$tmp/mc.$ws")" 0
	done
	row "store_plain 64 MiB (MB/s, goal ratio >= 0.95)" "$(pm_store store_plain)" \
		"likwid-bench store" "$(median <"$tmp/likwid.store")" 1
	row "store_nt (MOVNTI) 64 MiB" "$(pm_store store_nt)" "likwid-bench store_mem" \
		"$(median <"$tmp/likwid.store_mem")" 1
	row "store_ntdq (MOVNTDQ) 64 MiB" "$(pm_store store_ntdq)" "likwid-bench store_mem" \
		"$(median <"$tmp/likwid.store_mem")" 1
	echo
	echo "$met rows meet the goal, $missed do not, $suspect suspect (medians of 3 runs each)"
} | tee build/bench-host.md
