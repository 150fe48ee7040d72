#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the emulated-PMU patch series (tests/qemu/vpmu/patches/series) the way a QEMU
# maintainer would: applies it patch by patch to a pristine copy of Debian's qemu source
# (the same source package and version as build.sh) and, after each patch, runs the tree's
# scripts/checkpatch.pl on that patch and builds qemu-system-x86_64 (configured as
# build.sh's CONFIGURE, with ccache, in a build directory of its own under the cache).
# Exits non-zero naming the first patch that does not apply, does not build, or has a
# checkpatch error.
#
#   series-check.sh [--no-build] [--last-only] [--strict] [--keep-going]
#
#   --no-build    only apply and checkpatch each patch (minutes, no compiler)
#   --last-only   apply and checkpatch each patch, build once, after the last one
#   --strict      a checkpatch warning fails too (by default warnings are listed)
#   --keep-going  check every patch, report all failures, exit non-zero if any
#
# Work tree: $PMUBOOT_CACHE/vpmu-series/<version>/ (src, build); the tree is recreated
# from the pristine extraction on every run, the build directory is kept, so a rerun
# recompiles only what the patches change (ccache: $PMUBOOT_CACHE/ccache, shared with
# build.sh). The cover letter (0000-*) is not in patches/series and is not applied.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cache=${PMUBOOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pmuboot}

build=all strict=0 keep_going=0
for a in "$@"; do
	case $a in
	--no-build) build=none ;;
	--last-only) build=last ;;
	--strict) strict=1 ;;
	--keep-going) keep_going=1 ;;
	-h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "series-check: unknown option $a" >&2; exit 2 ;;
	esac
done

export PATH=/usr/lib/ccache:/usr/bin:/bin:$PATH
export CCACHE_DIR=$cache/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}

# build.sh's configure options, read from build.sh itself so the two cannot drift apart.
eval "$(sed -n '/^CONFIGURE=(/,/)$/p' "$here/build.sh")"
[[ ${#CONFIGURE[@]} -gt 0 ]] || { echo "series-check: no CONFIGURE in build.sh" >&2; exit 2; }

say() { echo "series-check: $*" >&2; }
failures=()
fail() {
	say "FAIL: $1: $2"
	failures+=("$1: $2")
	if [[ $keep_going == 0 ]]; then
		exit 1
	fi
}

dsc=$("$root/tests/qemu/qemu-source.sh")
ver=$(basename "$dsc" .dsc)
ver=${ver#qemu_}
work=$cache/vpmu-series/$ver
pristine=$work/pristine src=$work/src bld=$work/build
mkdir -p "$work"

mapfile -t series < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/patches/series")
[[ ${#series[@]} -gt 0 ]] || { say "patches/series lists no patch"; exit 2; }
for p in "${series[@]}"; do
	[[ -f $here/patches/$p ]] || { say "patches/series names $p, which does not exist"; exit 2; }
done

if [[ ! -d $pristine ]]; then
	say "extracting Debian's qemu $ver"
	rm -rf "$pristine.tmp"
	dpkg-source --no-check -x "$dsc" "$pristine.tmp" >/dev/null
	mv "$pristine.tmp" "$pristine"
fi
# A fresh tree every run, at the same path, so the kept build directory stays valid.
rm -rf "$src"
cp -a "$pristine" "$src"

configure() {
	if [[ ! -f $bld/build.ninja || ! -f $work/configured ||
	      $(cat "$work/configured") != "${CONFIGURE[*]}" ]]; then
		say "configuring"
		rm -rf "$bld"
		mkdir -p "$bld"
		(cd "$bld" && "$src/configure" "${CONFIGURE[@]}") >"$work/configure.log" 2>&1 ||
			return 1
		echo "${CONFIGURE[*]}" >"$work/configured"
	fi
}

compile() {
	make -C "$bld" -j"$(nproc)" qemu-system-x86_64 >"$work/make.log" 2>&1
}

n=0
total=${#series[@]}
for p in "${series[@]}"; do
	n=$((n + 1))
	file=$here/patches/$p
	say "[$n/$total] $p"
	if ! patch -d "$src" -p1 --batch --forward --no-backup-if-mismatch --quiet <"$file" \
		>"$work/patch.log" 2>&1; then
		cat "$work/patch.log" >&2
		fail "$p" "does not apply"
		say "later patches depend on it: stopping"
		break
	fi
	out=$(cd "$src" && perl scripts/checkpatch.pl "$file" 2>&1) || true
	totals=$(printf '%s\n' "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1 \2/p')
	read -r errs warns <<<"${totals:-x x}"
	if [[ $errs == x ]]; then
		printf '%s\n' "$out" >&2
		fail "$p" "checkpatch did not run"
	elif [[ $errs != 0 || ($strict == 1 && $warns != 0) ]]; then
		printf '%s\n' "$out" | grep -E -A3 '^(ERROR|WARNING)' >&2 || true
		fail "$p" "checkpatch: $errs error(s), $warns warning(s)"
	elif [[ $warns != 0 ]]; then
		say "  checkpatch: $warns warning(s):"
		printf '%s\n' "$out" | grep -E '^WARNING' | sed 's/^/series-check:    /' >&2
	fi
	if [[ $build == all || ($build == last && $n == "$total") ]]; then
		if ! configure; then
			tail -n 30 "$work/configure.log" >&2
			fail "$p" "configure failed (log: $work/configure.log)"
		elif ! compile; then
			grep -E 'error|Error' "$work/make.log" | head -n 40 >&2
			fail "$p" "build failed (log: $work/make.log)"
		fi
	fi
done

if [[ ${#failures[@]} -gt 0 ]]; then
	say "${#failures[@]} failure(s); the first: ${failures[0]}"
	exit 1
fi
case $build in
all) say "all $total patches apply, pass checkpatch and build" ;;
last) say "all $total patches apply and pass checkpatch; the series builds" ;;
none) say "all $total patches apply and pass checkpatch (not built)" ;;
esac
