#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An outside judge of the emulated PMU: kvm-unit-tests' x86/pmu.flat, written by other
# people against the same manual, run on tests/qemu/vpmu's QEMU for every emulated model.
# It must report no unexpected failure, and no SKIP but what needs KVM itself.
#
#   tests/qemu/kut.sh [-k SUBSTRING]
#
# The pinned snapshot comes from ../shared/conformance (PMUBOOT_CONFORMANCE overrides);
# a clone without it says so and skips. kvm-unit-tests is built once into the cache
# outside the clone; nothing of it is copied into the project. Runs use -icount shift=0:
# its reference-cycle bounds assume the TSC advances with the instructions, as it does
# under icount (under plain TCG the guest TSC follows host time). Ends with
# "N passed, N failed, N skipped".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
snap=${PMUBOOT_CONFORMANCE:-$root/../shared/conformance}
cache=${PMUBOOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pmuboot}
qemu=$root/build/vpmu/qemu-system-x86_64
only=""
[[ ${1:-} == -k ]] && only=${2:-}

# The emulated configurations: the models the issue names, and v2/v1 by property.
CONFIGS=(
	"Nehalem"
	"Skylake-Client"
	"Icelake-Server,model=106"	# QEMU's default model 134 is Jacobsville (errata relax it)
	"Skylake-Client,pmu-version=2"
	"Skylake-Client,pmu-version=1"
)
# SKIPs that need KVM itself (none so far): "name|why".
KVM_ONLY_SKIPS=()
# Bugs of the judge itself, "config|log pattern|why": the run must end exactly this way,
# with every check before it passed. x86/pmu.c check_counter_overflow() writes fixed
# counter 0 (MSR 0x309) on every Intel PMU; a version 1 PMU has no fixed counters and
# IA32_FIXED_CTR0 #GPs there (SDM Vol. 3B 18.2.1.1), so KVM would stop the same way.
KUT_BUGS=(
	"Skylake-Client,pmu-version=1|^Unhandled exception 13 #GP|rcx=0000000000000309|x86/pmu.c uses fixed counter 0, which a version 1 PMU lacks"
)

export PATH=/usr/bin:/bin:$PATH	# Debian's python3 for kvm-unit-tests' configure

tarball=$(compgen -G "$snap/kvm-unit-tests-*.tar.gz" | head -n 1 || true)
if [[ -z $tarball ]]; then
	echo "kut: no kvm-unit-tests snapshot in $snap (a clone without ../shared): skipped"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
[[ -x $qemu ]] || { echo "kut: $qemu missing: run make vpmu" >&2; exit 2; }

kdir=$cache/kut/$(basename "$tarball" .tar.gz)
if [[ ! -f $kdir/x86/pmu.flat ]]; then
	echo "kut: building $(basename "$tarball") (about 20 s)" >&2
	rm -rf "$kdir.tmp"
	mkdir -p "$kdir.tmp"
	tar -xzf "$tarball" -C "$kdir.tmp" --strip-components=1
	(cd "$kdir.tmp" && ./configure --arch=x86_64 >/dev/null && make -s -j"$(nproc)" >/dev/null) ||
		{ echo "kut: kvm-unit-tests did not build" >&2; exit 2; }
	rm -rf "$kdir"
	mv "$kdir.tmp" "$kdir"
fi

logs=$root/build/kut
mkdir -p "$logs"
passed=0 failed=0 n=0
echo "TAP version 13"
for cfg in "${CONFIGS[@]}"; do
	[[ -n $only && $cfg != *"$only"* ]] && continue
	n=$((n + 1))
	log=$logs/pmu-${cfg//[^A-Za-z0-9]/_}.log
	t0=$(date +%s)
	set +e
	timeout -k 5 600 "$qemu" -nodefaults -machine accel=tcg -device pc-testdev \
		-device isa-debug-exit,iobase=0xf4,iosize=0x4 -device pci-testdev -display none \
		-serial stdio -m 256 -smp 1 -icount shift=0 -kernel "$kdir/x86/pmu.flat" \
		-cpu "$cfg,pmu=on" </dev/null >"$log" 2>&1
	rc=$?
	set -e
	secs=$(($(date +%s) - t0))
	summary=$(grep -a '^SUMMARY:' "$log" | tail -n 1 || true)
	fails=$(grep -ac '^FAIL: ' "$log" || true)
	bad_skips=()
	while IFS= read -r line; do
		ok=0
		for k in ${KVM_ONLY_SKIPS[@]+"${KVM_ONLY_SKIPS[@]}"}; do
			[[ $line == *"${k%%|*}"* ]] && ok=1
		done
		((ok)) || bad_skips+=("$line")
	done < <(grep -a '^SKIP: ' "$log" || true)
	known=""
	for b in "${KUT_BUGS[@]}"; do
		IFS='|' read -r bcfg bpat breg bwhy <<<"$b"
		[[ $bcfg == "$cfg" ]] || continue
		passes=$(grep -ac '^PASS: ' "$log" || true)
		if [[ -z $summary && $fails == 0 && $passes -ge 40 ]] &&
			grep -aq "$bpat" "$log" && grep -aq "$breg" "$log"; then
			known="$passes passed, then the judge's own bug: $bwhy"
		fi
	done
	# isa-debug-exit: (code << 1) | 1; kvm-unit-tests exits 0 when nothing failed.
	if [[ $rc == 1 && -n $summary && $fails == 0 && ${#bad_skips[@]} == 0 ]]; then
		echo "ok $n kut.pmu $cfg # $summary ($secs s)"
		passed=$((passed + 1))
	elif [[ -n $known && ${#bad_skips[@]} == 0 ]]; then
		echo "ok $n kut.pmu $cfg # $known ($secs s)"
		passed=$((passed + 1))
	else
		echo "not ok $n kut.pmu $cfg # ${summary:-no SUMMARY line} (qemu status $rc, log $log)"
		grep -a '^FAIL: ' "$log" | head -n 20 | sed 's/^/#   /' || true
		for s in ${bad_skips[@]+"${bad_skips[@]}"}; do echo "#   $s (a SKIP that does not need KVM)"; done
		failed=$((failed + 1))
	fi
done
echo "1..$n"
echo "$passed passed, $failed failed"
((failed == 0))
