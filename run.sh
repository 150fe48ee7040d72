#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh: build pmuboot and boot it under QEMU + OVMF, or build the bootable disk image.
#
#   ./run.sh qemu [--smp N[,threads=T][,maxcpus=M]] [--cpu MODEL] [--mem MB] [--icount] [--oracle] [--kvm] [--timeout S]
#                 [--vpmu [--silicon] [--seed N] [--madt ORDER] [--x2apic]] [--erratum NAME] [--log FILE] [--com2 FILE]
#                 [--keep-image FILE]
#                 [--shell ARGS] [-- OPTION...]
#   ./run.sh linux [--vpmu [--silicon] [--seed N]] [--cpu MODEL] [--timeout S] [--log FILE]
#                  [-- ARG...]
#   ./run.sh image
#   ./run.sh report [LOG] [--out DIR]
#   ./run.sh compare A.json B.json [--threshold PCT] [--min-abs X] [--moved-is-worse]
#
# report: reads a serial log (default build/serial.log) and writes DIR (default
# build/report): results.json, junit.xml, and with gnuplot chase_latency, store_bandwidth
# and measured_expected as .svg (and .png); exits 0, 1 (no pictures), 2 (bad input).
# compare: what changed from A to B (two results.json); exits 0 when no check got worse,
# 1 when some did, 2 on bad input.
# qemu: writes OPTIONs (pmuboot options, e.g. tests=fault.* reps=5) into the ESP's
# pmuboot.cfg of a private copy of build/pmuboot.img, boots it, streams the serial port to
# the terminal and to the log (default build/serial.log), and exits
#   0 every check passed or skipped, 1 a check failed, 2 bad options (run.sh's or the
#   firmware's), 3 a fatal fault or an unclean end, 4 timeout.
# --oracle runs under -icount with the reference-oracle plugin (tests/qemu/oracle.c) and
# then compares every region's predicted counts with what QEMU executed
# (build/oracle_compare); any difference fails the run (status 1). Plugin output:
# build/oracle.txt (or --oracle-out FILE).
# --shell ARGS starts pmuboot from the UEFI shell instead (startup.nsh runs
# 'pmuboot.efi ARGS'), so ARGS arrive as load options; the shell's %lasterror% then
# gives the verdict when pmuboot returns to it.
# --vpmu boots on the emulated Intel PMU (QEMU patched by tests/qemu/vpmu/, built by
# `make vpmu` when missing): -cpu MODEL,pmu=on, MODEL Skylake-Client unless --cpu names
# one (with properties: --cpu Skylake-Client,pmu-version=2; pmu=off runs the patched
# binary without the PMU); --erratum NAME injects a PMU erratum (pmu-erratum=NAME;
# repeatable). --silicon boots the emulated PMU's silicon profile (pmu-silicon=on: PMI
# skid, SMIs, INIT keeping the PMU, version-4 freeze at the overflow, no fast RDPMC; see
# tests/qemu/vpmu/README.md); its random choices follow --seed N (pmu-seed=N; default a
# new one each run, printed, so a failing run can be replayed). PMUBOOT_VPMU_QEMU=BINARY
# boots that emulated-PMU QEMU instead, without building (a series under development, or a
# binary kept to compare with). --madt threads-last has the emulated machine's ACPI MADT
# list the first thread of every core, then the second (as the ACPI specification asks of
# firmware); adjacent, the default, lists each core's threads together (QEMU's order).
# --x2apic gives the emulated machine x2APIC (tcg-x2apic=on) and APIC IDs above 254: CPU 0
# at APIC ID 0, the other --smp N - 1 (N plain, 2 by default) at 256, 257, ... (socket 1 of
# a machine of two 129-core sockets), so OVMF hands over in x2APIC mode; one TCG thread runs
# every vCPU (-accel tcg,thread=single).
# linux: boots Debian's cloud kernel (fetched once into ~/.cache/pmuboot/linux) with an
# initramfs of pmuboot-linux (make linux) and a small init, which runs it with ARGs
# (default --no-bench) and powers off: the same checks, counted by Linux's own perf driver.
# --vpmu: on the emulated Intel PMU (as for qemu); without it, under KVM where /dev/kvm
# works, else under TCG without a PMU (every counter check SKIPs). Serial output goes to
# the terminal and the log (default build/linux.log); exits 0 every check passed or
# skipped, 1 a check failed, 2 bad options, 3 the guest did not report, 4 timeout.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
caller=$PWD
cd "$here" || exit 2

# A path the user typed, resolved against the directory run.sh was started from (it works
# in its own directory); an absolute one is left alone.
from_caller() { [[ $1 == /* ]] && printf '%s\n' "$1" || printf '%s\n' "$caller/$1"; }

OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
ESP_OFFSET=1048576	# Makefile: ESP at sector 2048
MIN_MEM_MB=64		# measured: 53 MiB hangs in OVMF's boot manager, 54 boots (README)
CFG_PATH=::/EFI/BOOT/pmuboot.cfg

# Debian packages, and a file or command that proves each is there.
DEPS=(
	"gcc:gcc" "make:make" "gnu-efi:/usr/lib/crt0-efi-x86_64.o" "mtools:mcopy"
	"gdisk:sgdisk" "qemu-system-x86:qemu-system-x86_64" "ovmf:$OVMF_CODE"
	"libpfm4-dev:/usr/include/perfmon/pfmlib.h"
)
# What `report` and `compare` need (the host tool and its pictures).
REPORT_DEPS=("gcc:gcc" "make:make" "gnuplot-nox:gnuplot")

die() { echo "run.sh: $*" >&2; exit 2; }

ensure_deps() {	# [PKG:PROOF...] (default: DEPS)
	local missing=() d pkg what list=("$@")
	((${#list[@]})) || list=("${DEPS[@]}")
	for d in "${list[@]}"; do
		pkg=${d%%:*}; what=${d#*:}
		if [[ $what == /* ]]; then [[ -e $what ]] || missing+=("$pkg")
		else command -v "$what" >/dev/null 2>&1 || missing+=("$pkg"); fi
	done
	((${#missing[@]} == 0)) && return 0
	if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
		echo "run.sh: installing ${missing[*]}" >&2
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >&2 ||
			die "apt-get install failed for: ${missing[*]}"
	else
		die "missing packages; run as root: apt-get install -y ${missing[*]}"
	fi
}

build() {
	make -s -j"$(nproc)" all >&2 || { echo "run.sh: build failed" >&2; exit 2; }
}

usage() {
	sed -n '3,/^set /p' "$0" | sed -n 's/^# \{0,1\}//p'
	exit 2
}

# The emulated-PMU QEMU: PMUBOOT_VPMU_QEMU, or build/vpmu's (built by make vpmu if needed).
vpmu_qemu() {
	if [[ -n ${PMUBOOT_VPMU_QEMU:-} ]]; then
		[[ -x $PMUBOOT_VPMU_QEMU ]] || die "PMUBOOT_VPMU_QEMU=$PMUBOOT_VPMU_QEMU: not an executable"
		printf '%s\n' "$PMUBOOT_VPMU_QEMU"
	else
		make -s vpmu >&2 || die "could not build the emulated-PMU QEMU (make vpmu)"
		printf '%s\n' "$here/build/vpmu/qemu-system-x86_64"
	fi
}

# The silicon profile and its seed onto the caller's -cpu string (its cpu, silicon, seed): a
# silicon run without --seed gets a new one, printed so a failing run can be replayed.
vpmu_profile() {
	if ((silicon)); then
		cpu+=",pmu-silicon=on"
		[[ -n $seed ]] || seed=$(( (RANDOM << 15 | RANDOM) + 1 ))
	fi
	if [[ -n $seed ]]; then
		cpu+=",pmu-seed=$seed"
		echo "run.sh: emulated PMU seed $seed (replay with --seed $seed)" >&2
	fi
}

cmd_qemu() {
	local smp=1 cpu="" mem=256 icount=0 kvm=0 timeout=120 timeout_set=0 log=build/serial.log vpmu=0
	local errata=() silicon=0 seed="" madt="" x2apic=0
	local com2="" keep_image="" shell_args="" shell=0 oracle=0 oracle_out=build/oracle.txt opts=()
	while (($#)); do
		case $1 in
		--smp) smp=${2:?--smp needs N}; shift ;;
		--cpu) cpu=${2:?--cpu needs a model}; shift ;;
		--mem) mem=${2:?--mem needs MB}; shift ;;
		--icount) icount=1 ;;
		--oracle) oracle=1; icount=1 ;;
		--oracle-out) oracle_out=$(from_caller "${2:?--oracle-out needs a file}"); shift ;;
		--kvm) kvm=1 ;;
		--vpmu) vpmu=1 ;;
		--erratum) errata+=("${2:?--erratum needs a name}"); shift ;;
		--silicon) silicon=1 ;;
		--seed) seed=${2:?--seed needs N}; shift ;;
		--madt) madt=${2:?--madt needs adjacent or threads-last}; shift ;;
		--x2apic) x2apic=1 ;;
		--timeout) timeout=${2:?--timeout needs seconds}; timeout_set=1; shift ;;
		--log) log=$(from_caller "${2:?--log needs a file}"); shift ;;
		--com2) com2=$(from_caller "${2:?--com2 needs a file}"); shift ;;
		--keep-image) keep_image=$(from_caller "${2:?--keep-image needs a file}"); shift ;;
		--shell) shell=1; shell_args=${2?--shell needs arguments (may be empty)}; shift ;;
		--) shift; opts=("$@"); break ;;
		-h|--help) usage ;;
		*) die "unknown argument '$1' (see ./run.sh --help)" ;;
		esac
		shift
	done
	[[ $smp =~ ^[1-9][0-9]*(,threads=[1-9])?(,maxcpus=[1-9][0-9]*)?$ ]] ||
		die "--smp $smp: not N[,threads=T][,maxcpus=M] (T logical CPUs a core; M - N CPUs listed in the MADT, not present)"
	[[ $mem =~ ^[1-9][0-9]*$ ]] || die "--mem $mem: not a positive number of MB"
	# Below about 54 MiB Debian's OVMF does not reach the boot loader (it stops in its boot
	# manager, or resets): the run would only end at --timeout.
	((mem >= MIN_MEM_MB)) || die "--mem $mem: OVMF needs at least $MIN_MEM_MB MB to boot pmuboot"
	[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "--timeout $timeout: not a positive number of seconds"
	[[ -z $seed || $seed =~ ^[0-9]{1,19}$ ]] || die "--seed $seed: not a number (0 to 19 digits)"
	((vpmu || !silicon)) || die "--silicon needs --vpmu (the emulated PMU's silicon profile)"
	[[ -z $seed ]] || ((vpmu)) || die "--seed needs --vpmu (it seeds the emulated PMU)"
	[[ -z $madt || $madt == adjacent || $madt == threads-last ]] ||
		die "--madt $madt: not adjacent or threads-last"
	[[ -z $madt ]] || ((vpmu)) || die "--madt needs --vpmu (the emulated machine's MADT order)"
	local x2devs=()
	if ((x2apic)); then
		((vpmu)) || die "--x2apic needs --vpmu (the emulated machine's x2APIC)"
		[[ -z $madt ]] || die "--x2apic and --madt: not together (--x2apic places the CPUs)"
		[[ $smp =~ ^[0-9]+$ ]] && ((smp <= 64)) ||
			die "--x2apic with --smp $smp: a plain number of CPUs, 2 to 64"
		((smp >= 2)) || smp=2
		local i
		for ((i = 0; i < smp - 1; i++)); do x2devs+=("socket-id=1,core-id=$i,thread-id=0"); done
		smp="1,sockets=2,cores=129,threads=1,maxcpus=258"
	fi

	ensure_deps
	build
	local qemu_bin=qemu-system-x86_64
	if ((vpmu)); then
		((kvm)) && die "--vpmu is the emulated PMU under TCG, not --kvm"
		qemu_bin=$(vpmu_qemu) || exit 2
		cpu=${cpu:-Skylake-Client}
		[[ $cpu == *pmu=* ]] || cpu+=",pmu=on"	# pmu=off: the patched binary, no PMU
		# several errata: one pmu-erratum=A+B (QEMU keeps only the last of a repeated property)
		((${#errata[@]})) && cpu+=",pmu-erratum=$(IFS=+; echo "${errata[*]}")"
		((x2apic)) && cpu+=",tcg-x2apic=on"
		vpmu_profile
		vpmu_selection
	elif ((${#errata[@]})); then
		die "--erratum needs --vpmu (only the emulated PMU can misbehave on request)"
	fi
	cpu=${cpu:-qemu64}
	if ((oracle)); then
		((kvm)) && die "--oracle needs TCG (the plugin sees only emulated code), not --kvm"
		make -s oracle >&2 || die "could not build the oracle plugin"
	fi

	local tmp; tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmuboot.XXXXXX") || die "mktemp failed"
	trap 'rm -rf "$tmp"' EXIT
	cp --sparse=always build/pmuboot.img "$tmp/disk.img"
	cp "$OVMF_VARS" "$tmp/vars.fd"
	{
		echo "# written by run.sh for this run"
		if ((icount)); then echo "icount"; fi
		if ((oracle)); then echo "oracle"; fi
		for o in "${opts[@]}"; do printf '%s\n' "$o"; done
	} >"$tmp/pmuboot.cfg"
	mcopy -o -i "$tmp/disk.img@@$ESP_OFFSET" "$tmp/pmuboot.cfg" "$CFG_PATH" ||
		die "could not write pmuboot.cfg into the image"
	if ((shell)); then
		# No removable-media boot file: OVMF falls back to its shell, which runs startup.nsh.
		mren -i "$tmp/disk.img@@$ESP_OFFSET" ::/EFI/BOOT/BOOTX64.EFI ::/EFI/BOOT/pmuboot.efi &&
		printf '@echo -off\r\nfs0:\r\n\\EFI\\BOOT\\pmuboot.efi %s\r\necho "pmuboot returned %%lasterror%%"\r\nreset -s\r\n' \
			"$shell_args" >"$tmp/startup.nsh" &&
		mcopy -o -i "$tmp/disk.img@@$ESP_OFFSET" "$tmp/startup.nsh" ::/startup.nsh ||
			die "could not prepare the shell boot"
	fi

	local qemu=("$qemu_bin" -M "q35${madt:+,madt-order=$madt}" -m "$mem" -smp "$smp"
		-nodefaults -display none -no-reboot -monitor none -net none
		-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE"
		-drive "if=pflash,format=raw,file=$tmp/vars.fd"
		-drive "format=raw,file=$tmp/disk.img"
		-device isa-debug-exit,iobase=0xf4,iosize=0x04
		-serial stdio)
	if [[ -n $com2 ]]; then qemu+=(-serial "file:$com2"); fi
	if ((kvm)); then
		[[ -r /dev/kvm && -w /dev/kvm ]] || die "--kvm: /dev/kvm is not usable here"
		qemu+=(-accel kvm -cpu host)
	else
		# --x2apic: one TCG thread. Under MTTCG the AP at APIC ID 256 may report after OVMF
		# chose its APIC mode, and OVMF then hands over in xAPIC mode (3 boots of 8).
		qemu+=(-accel "tcg$( ((x2apic)) && echo ,thread=single)" -cpu "$cpu")
		# the CPUs on socket 1 (--x2apic): the -cpu properties reach them as the type's
		for d in "${x2devs[@]}"; do qemu+=(-device "${cpu%%,*}-x86_64-cpu,$d"); done
		if ((icount)); then qemu+=(-icount shift=0,sleep=off); fi
		if ((oracle)); then
			mkdir -p "$(dirname "$oracle_out")"
			qemu+=(-plugin "$here/build/oracle.so,out=$oracle_out")
		fi
	fi

	mkdir -p "$(dirname "$log")"
	: >"$log"
	qemu+=(-pidfile "$tmp/qemu.pid")
	echo "run.sh: ${qemu[*]}" >&2
	# pmuboot's closing line ("# end: status=S on-exit=A") is the run's end. Where QEMU will
	# not end by itself after it (on-exit=return: the firmware goes on to its boot menu;
	# on-exit=halt), stop QEMU there; its verdict is pmuboot's. Not with --shell, whose
	# startup.nsh reports the status pmuboot returned.
	if ((!shell)); then
		(
			while sleep 0.5; do
				end=$(tail -c 65536 "$log" | tr -d '\r' | grep -m1 -E '^# end: status=[a-z]+ on-exit=(return|halt)$')
				[[ -n $end ]] || continue
				echo "${end#\# end: }" >"$tmp/ended"
				sleep 1		# what is still in the pipe reaches the log
				[[ -s $tmp/qemu.pid ]] && kill "$(cat "$tmp/qemu.pid")" 2>/dev/null
				exit 0
			done
		) &
		local watcher=$!
	fi
	# Serial goes to the log as it is, and to the terminal without the firmware's terminal
	# escape sequences.
	timeout --foreground -k 5 "$timeout" "${qemu[@]}" </dev/null 2>"$tmp/qemu.err" |
		tee "$log" | sed -u 's/\x1b\[[0-9;=?]*[A-Za-z]//g; s/\r$//'
	local rc=${PIPESTATUS[0]}
	if ((!shell)); then
		kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null
	fi
	if ((!shell && rc == 0)) && [[ ! -s $tmp/ended ]]; then
		# QEMU exited at a reset (-no-reboot): on-exit=reboot, whose verdict is the
		# closing line's.
		tail -c 65536 "$log" | tr -d '\r' |
			sed -n 's/^# end: \(status=[a-z]* on-exit=reboot\)$/\1/p' | tail -n 1 >"$tmp/ended"
	fi
	if [[ -s $tmp/ended ]]; then
		# Stopped after the closing line: pmuboot's verdict, as isa-debug-exit gives it.
		case $(cat "$tmp/ended") in
		status=pass*) rc=33 ;;
		status=fail*) rc=35 ;;
		status=usage*) rc=37 ;;
		*) rc=39 ;;
		esac
		echo "run.sh: pmuboot ended the run ($(cat "$tmp/ended")): QEMU stopped there"
	fi
	if [[ -n $keep_image ]]; then cp --sparse=always "$tmp/disk.img" "$keep_image"; fi
	if [[ -s $tmp/qemu.err ]]; then
		grep -v -e "TCG doesn't support requested feature" -e "terminating on signal 15" \
			"$tmp/qemu.err" >&2
	fi

	local summary returned
	if ((shell)) && ((rc == 0)); then
		returned=$(tr -d '\r' <"$log" | sed 's/\x1b\[[0-9;=?]*[A-Za-z]//g' |
			sed -n 's/.*pmuboot returned \(0x[0-9A-Fa-f]*\).*/\1/p' | tail -n 1)
		case ${returned,,} in
		0x0) rc=33 ;;				# EFI_SUCCESS
		0x2|0x8000000000000002) rc=37 ;;	# EFI_INVALID_PARAMETER (the shell drops bit 63)
		0x15|0x8000000000000015) rc=35 ;;	# EFI_ABORTED
		*) echo "run.sh: FAIL: pmuboot did not return to the shell with a status" \
			"('${returned:-none}')"; exit 3 ;;
		esac
	fi
	summary=$(tr -d '\r' <"$log" | grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' | tail -n 1)
	if ((oracle)) && [[ $rc == 33 || $rc == 35 ]]; then
		echo "run.sh: reference oracle: comparing predictions with $oracle_out"
		if ! build/oracle_compare "$log" "$oracle_out"; then
			echo "run.sh: FAIL: the oracle disagrees with the firmware's models (above)"
			exit 1
		fi
	fi
	case $rc in
	33)
		if [[ $summary =~ ^[0-9]+\ passed,\ 0\ failed ]]; then
			echo "run.sh: PASS ($summary)"; exit 0
		fi
		if ! grep -q '^TAP version' "$log"; then
			echo "run.sh: PASS (no checks run)"; exit 0
		fi
		echo "run.sh: FAIL: the firmware reported success but the log has no clean summary" \
			"('${summary:-none}')"; exit 3 ;;
	35) echo "run.sh: FAIL: checks failed (${summary:-no summary})"; exit 1 ;;
	37) echo "run.sh: FAIL: the firmware rejected its options (see the '# error:' line)"; exit 2 ;;
	39) echo "run.sh: FAIL: fatal fault (register dump above)"; exit 3 ;;
	124|137) echo "run.sh: FAIL: timeout after ${timeout} s (QEMU stopped)"; exit 4 ;;
	1)	if [[ ! -s $log ]]; then
			# QEMU refused its command line: its message above names what; the guest
			# never ran. Say which of run.sh's options it came from.
			local what="a QEMU option run.sh built" msg=""
			[[ -s $tmp/qemu.err ]] && msg=$(grep -v "TCG doesn't support" "$tmp/qemu.err" |
				grep -m1 'qemu-system')
			case $msg in
			*SMP*|*smp*|*CPUs*|*maxcpus*) what="--smp $smp" ;;
			*cpu*|*"CPU model"*|*roperty*|*pmu*) what="--cpu $cpu (a CPU model or property)" ;;
			*emory*|*RAM*|*ram*) what="--mem $mem" ;;
			esac
			echo "run.sh: FAIL: QEMU refused to start (status 1, message above): it refused" \
				"$what"; exit 2
		fi
		echo "run.sh: FAIL: QEMU exited with status 1 without a pmuboot verdict"; exit 3 ;;
	*) echo "run.sh: FAIL: QEMU exited with status $rc without a pmuboot verdict" \
		"(triple fault, reset or no isa-debug-exit?)"; exit 3 ;;
	esac
}

# On the emulated PMU, what a run chooses by default (cmd_qemu's variables): the seed-event
# checks (events.*) measure each event on its own kernel, and the emulation models only some
# of the events (build/vpmu/modelled-events-*.txt); the others measure 0 and FAIL, correct
# verdicts on an incomplete emulation. Without tests= (or list, measure=, --shell), leave
# them out and say how to run them; where a run names them, give it the time they take.
vpmu_selection() {
	local o chosen=""
	[[ $cpu == *pmu=off* ]] && return	# no emulated PMU: nothing it leaves unmodelled
	for o in "${opts[@]}" $shell_args; do
		case $o in tests=*|measure=*|list|list=*) chosen=$o ;; esac
	done
	if [[ -z $chosen ]]; then
		local out="!events.*"
		echo "run.sh: on the emulated PMU the seed-event checks (events.*) are left out:" \
			"it models only some of their events (build/vpmu/modelled-events-*.txt)," \
			"the others measure 0 and FAIL. To run them all: ./run.sh qemu --vpmu" \
			"--cpu ${cpu%%,*} --timeout 900 -- tests=events.* size=64M" >&2
		case ${cpu%%,*} in
		Conroe*|Penryn*)
			# tests/qemu/vpmu/README.md: no LBR on Core 2 (the parts have one, at
			# 40H/60H); Sandy Bridge to Broadwell have theirs since QEMU patch 50
			out+=",!lbr.*"
			echo "run.sh: the emulation gives ${cpu%%,*} no LBR, where the part has one:" \
				"lbr.* left out (they would FAIL)" >&2 ;;
		esac
		opts+=("tests=$out")
		# about 50 s on the emulated Nehalem, more on a loaded host
		((timeout_set)) || timeout=300
	elif [[ $chosen == tests=*events* ]] && ((!timeout_set)); then
		timeout=900	# about 4 minutes for Nehalem's 430 events, more with --smp
		echo "run.sh: seed-event checks on the emulated PMU: --timeout $timeout" >&2
	fi
}

# The kernel ./run.sh linux boots: Debian's cloud kernel image (serial console, perf and
# the Intel and AMD core PMU drivers built in), unpacked once into the cache.
linux_kernel() {
	local dir=${XDG_CACHE_HOME:-$HOME/.cache}/pmuboot/linux pkg k
	k=$(ls "$dir"/x/boot/vmlinuz-* 2>/dev/null | tail -n 1)
	if [[ -z $k ]]; then
		command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
			die "linux: needs apt-get and dpkg-deb to fetch Debian's kernel"
		pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
		if [[ -z $pkg && $(id -u) == 0 ]]; then
			apt-get update -qq >&2
			pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
				awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
		fi
		[[ -n $pkg ]] || die "linux: no linux-image-cloud-amd64 in the package lists (apt-get update)"
		mkdir -p "$dir" && rm -rf "$dir/x" "$dir"/*.deb
		(cd "$dir" && apt-get download -q "$pkg" >&2 && dpkg-deb -x "$pkg"_*.deb x && rm -f ./*.deb) ||
			die "linux: could not fetch and unpack $pkg"
		k=$(ls "$dir"/x/boot/vmlinuz-* 2>/dev/null | tail -n 1)
		[[ -n $k ]] || die "linux: $pkg holds no /boot/vmlinuz-*"
	fi
	printf '%s\n' "$k"
}

cmd_linux() {
	local cpu="" timeout=600 vpmu=0 silicon=0 seed="" log=build/linux.log args=(--no-bench)
	while (($#)); do
		case $1 in
		--vpmu) vpmu=1 ;;
		--silicon) silicon=1 ;;
		--seed) seed=${2:?--seed needs N}; shift ;;
		--cpu) cpu=${2:?--cpu needs a model}; shift ;;
		--timeout) timeout=${2:?--timeout needs seconds}; shift ;;
		--log) log=$(from_caller "${2:?--log needs a file}"); shift ;;
		--) shift; args=("$@"); break ;;
		-h|--help) usage ;;
		*) die "unknown argument '$1' (see ./run.sh --help)" ;;
		esac
		shift
	done
	[[ $timeout =~ ^[1-9][0-9]*$ ]] || die "--timeout $timeout: not a positive number of seconds"
	[[ -z $seed || $seed =~ ^[0-9]{1,19}$ ]] || die "--seed $seed: not a number (0 to 19 digits)"
	((vpmu || !silicon)) || die "--silicon needs --vpmu (the emulated PMU's silicon profile)"
	[[ -z $seed ]] || ((vpmu)) || die "--seed needs --vpmu (it seeds the emulated PMU)"
	local a
	for a in "${args[@]}"; do
		[[ $a =~ ^[A-Za-z0-9=_.,-]+$ ]] || die "linux: argument '$a' cannot pass the kernel command line"
	done
	ensure_deps "gcc:gcc" "make:make" "qemu-system-x86:qemu-system-x86_64"
	make -s linux build/guest-init build/mkcpio >&2 || die "could not build pmuboot-linux"
	local kernel; kernel=$(linux_kernel) || exit 2
	local tmp; tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmuboot.XXXXXX") || die "mktemp failed"
	# shellcheck disable=SC2064 # expanded now: $tmp is local to this function
	trap "rm -rf '$tmp'" EXIT
	build/mkcpio "$tmp/initramfs" init=build/guest-init pmuboot-linux=build/pmuboot-linux ||
		die "could not write the initramfs"
	local qemu_bin=qemu-system-x86_64 accel=(-accel tcg)
	if ((vpmu)); then
		qemu_bin=$(vpmu_qemu) || exit 2
		cpu=${cpu:-Skylake-Client}
		[[ $cpu == *pmu=* ]] || cpu+=",pmu=on"
		# QEMU 7.2's TCG pops an IRET frame with supervisor accesses (target/i386/tcg/
		# seg_helper.c, POPQ_RA: cpu_ldq_kernel_ra), so with SMAP a CPL-3 IRETQ (the
		# iret_loop kernel) faults where a CPU reads the frame at CPL 3: no SMAP here.
		cpu+=",-smap"
		vpmu_profile
	elif [[ -r /dev/kvm && -w /dev/kvm ]]; then
		accel=(-accel kvm); cpu=${cpu:-host}
	else
		cpu=${cpu:-qemu64}
		echo "run.sh: no /dev/kvm and no --vpmu: the guest has no PMU (checks SKIP)" >&2
	fi
	mkdir -p "$(dirname "$log")"
	local qemu=("$qemu_bin" -M q35 -m 512 -smp 1 -nodefaults -display none -no-reboot
		-monitor none -net none "${accel[@]}" -cpu "$cpu" -kernel "$kernel"
		-initrd "$tmp/initramfs" -append "console=ttyS0 panic=-1 quiet -- ${args[*]}"
		-serial stdio)
	echo "run.sh: ${qemu[*]}" >&2
	timeout --foreground -k 5 "$timeout" "${qemu[@]}" </dev/null 2>"$tmp/qemu.err" |
		tee "$log" | sed -u 's/\r$//'
	local rc=${PIPESTATUS[0]}
	grep -v -e "TCG doesn't support requested feature" "$tmp/qemu.err" >&2
	((rc == 124 || rc == 137)) && { echo "run.sh: TIMEOUT after ${timeout}s"; return 4; }
	local exited
	exited=$(tr -d '\r' <"$log" | sed -n 's/^# guest: pmuboot-linux exited \([0-9]*\)$/\1/p' | tail -n 1)
	case $exited in
	0) echo "run.sh: PASS (pmuboot-linux in the guest: every check passed or skipped)"; return 0 ;;
	1) echo "run.sh: FAIL (pmuboot-linux in the guest: a check failed)"; return 1 ;;
	"") echo "run.sh: FAIL: the guest ended (QEMU status $rc) without pmuboot-linux's status"; return 3 ;;
	*) echo "run.sh: FAIL: pmuboot-linux in the guest exited $exited"; return 3 ;;
	esac
}

# report [LOG] [--out DIR]: results.json, junit.xml and pictures from a serial log.
cmd_report() {
	local log=build/serial.log out=build/report have_log=0
	while (($#)); do
		case $1 in
		--out) out=$(from_caller "${2:?--out needs a directory}"); shift ;;
		-h|--help) usage ;;
		-*) die "report: unknown argument '$1' (report [LOG] [--out DIR])" ;;
		*) ((have_log)) && die "report: more than one log ('$1')"; log=$(from_caller "$1")
		   have_log=1 ;;
		esac
		shift
	done
	[[ -f $log ]] || die "report: no log '$log' (run ./run.sh qemu first, or name a serial log)"
	ensure_deps "${REPORT_DEPS[@]}"
	make -s report-tool >&2 || die "could not build the report tool (make report-tool)"
	exec build/pmuboot-report report "$log" --out "$out"
}

# compare A.json B.json [--threshold PCT] [--min-abs X] [--moved-is-worse]
cmd_compare() {
	ensure_deps "gcc:gcc" "make:make"
	make -s report-tool >&2 || die "could not build the report tool (make report-tool)"
	# The two files are the arguments that are not options or option values.
	local args=() a
	while (($#)); do
		a=$1; shift
		case $a in
		--threshold|--min-abs) args+=("$a" "${1-}"); (($#)) && shift ;;
		-*) args+=("$a") ;;
		*) args+=("$(from_caller "$a")") ;;
		esac
	done
	exec build/pmuboot-report compare ${args[@]+"${args[@]}"}
}

case ${1:-} in
qemu) shift; cmd_qemu "$@" ;;
linux) shift; cmd_linux "$@" ;;
report) shift; cmd_report "$@" ;;
compare) shift; cmd_compare "$@" ;;
image) shift; ensure_deps; make -s image && echo "run.sh: built build/pmuboot.img" ;;
-h|--help|"") usage ;;
*) die "unknown command '$1' (qemu, linux, image, report or compare)" ;;
esac
