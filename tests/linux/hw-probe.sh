#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/linux/hw-probe.sh BUNDLE OUTDIR: what a borrowed Linux machine's CPU and PMU are, in
# one short run (docs/hardware-results/ keeps what it printed). BUNDLE holds what the
# machine cannot build: pmuboot-linux (make linux), multichase (../shared/conformance,
# built static), and for a pmuboot boot under KVM: qemu-system-x86_64 with its libraries
# in lib/ and ROMs in share/, OVMF_CODE_4M.fd, OVMF_VARS_4M.fd, pmuboot.img.gz.
set -u
B=$(cd "${1:-.hw}" && pwd)
O=${2:-/tmp/hw-probe}
mkdir -p "$O"
exec > >(tee "$O/probe.log") 2>&1

echo "== date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "== uname: $(uname -a)"
echo "== cpu"
grep -m1 "model name" /proc/cpuinfo
grep -m1 "microcode" /proc/cpuinfo
echo "processors: $(grep -c ^processor /proc/cpuinfo)"
grep -m1 "^flags" /proc/cpuinfo
lscpu 2>/dev/null | grep -E "^(Vendor|Model name|CPU family|Model:|Stepping|Thread|Core|Socket|Hypervisor|Virtualization|L1d|L2|L3)"
echo "== perf_event"
echo "devices: $(ls /sys/bus/event_source/devices/ 2>&1 | tr '\n' ' ')"
echo "perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid 2>&1)"
dmesg 2>/dev/null | grep -i -E "perf|pmu" | head -20
echo "== perf stat -e instructions true"
if command -v perf >/dev/null; then perf stat -e instructions true 2>&1; else echo "perf: not installed"; fi
echo "== /dev/kvm: $(ls -la /dev/kvm 2>&1)"
echo "== pmuboot-linux"
timeout 180 "$B/pmuboot-linux"
echo "pmuboot-linux rc=$?"
echo "== multichase -s 64 (latency in ns, best of 3 samples)"
for s in 16k 256k 1m 8m 64m; do
	echo "ws=$s: $(timeout 30 "$B/multichase" -s 64 -m $s -n 3 2>&1 | tr '\n' ' ')"
done
if [[ -r /dev/kvm && -w /dev/kvm && -x $B/qemu-system-x86_64 ]]; then
	# -cpu host first; where KVM refuses an MSR QEMU sets for it (seen nested: 10AH,
	# IA32_ARCH_CAPABILITIES), once more without that feature.
	for cpu in host host,-arch-capabilities; do
		echo "== pmuboot under KVM (-cpu $cpu)"
		d=$(mktemp -d)
		gunzip -c "$B/pmuboot.img.gz" >"$d/disk.img"
		cp "$B/OVMF_VARS_4M.fd" "$d/vars.fd"
		log=$O/pmuboot-kvm-${cpu//[^a-z]/_}.log
		: >"$log"
		LD_LIBRARY_PATH=$B/lib timeout 240 "$B/qemu-system-x86_64" -L "$B/share" -M q35 \
			-m 256 -smp 1 -nodefaults -display none -no-reboot -monitor none -net none \
			-drive "if=pflash,format=raw,readonly=on,file=$B/OVMF_CODE_4M.fd" \
			-drive "if=pflash,format=raw,file=$d/vars.fd" \
			-drive "format=raw,file=$d/disk.img" \
			-device isa-debug-exit,iobase=0xf4,iosize=0x04 -serial "file:$log" \
			-accel kvm -cpu "$cpu" -pidfile "$d/pid" >"$d/qemu.out" 2>&1 &
		q=$!
		# pmuboot's closing line ends the run (on-exit=return goes on to OVMF's menu);
		# no serial output in 60 s: stuck in the firmware.
		for i in $(seq 480); do
			sleep 0.5
			grep -q "^# end: " "$log" 2>/dev/null && break
			kill -0 $q 2>/dev/null || break
			((i == 120)) && [[ ! -s $log ]] && break
		done
		[[ -s $d/pid ]] && kill "$(cat "$d/pid")" 2>/dev/null
		wait $q
		echo "qemu rc=$?"
		head -c 1500 "$d/qemu.out"
		tr -d '\r' <"$log" | grep -E "^(not ok|# end|# [0-9]+ passed|# cpu|# pmu)" | head -40
		echo "serial log: $(wc -l <"$log") lines"
		grep -q "^# end: " "$log" && break
	done
fi
echo "== done"
