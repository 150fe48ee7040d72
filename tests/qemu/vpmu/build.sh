#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the emulated-PMU QEMU: Debian's source of the installed qemu-system-x86 (exact
# version from dpkg), with the patches listed in tests/qemu/vpmu/patches/series applied,
# configured for x86_64-softmmu, TCG only, plugins on (the reference oracle still loads).
# The result is copied to OUT (default build/vpmu/qemu-system-x86_64).
#
# Everything heavy lives in the cache outside the clone ($PMUBOOT_CACHE, default
# ~/.cache/pmuboot): the source package, a pristine tree, the patched tree, the build
# directory and ccache. A rebuild touches only the files the series changes, in the same
# directory every time, so make recompiles just those; an unchanged series and script
# reuse the binary outright. Nothing of QEMU's source enters the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/build/vpmu}
cache=${PMUBOOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pmuboot}
# Debian's python3, not a pyenv shim that may lack what QEMU's configure needs; ccache's
# compiler links first (QEMU's configure names the compiler itself, so meson would not
# add ccache on its own).
export PATH=/usr/lib/ccache:/usr/bin:/bin:$PATH
export CCACHE_DIR=$cache/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}

CONFIGURE=(--target-list=x86_64-softmmu --without-default-features --enable-tcg
	--disable-kvm --enable-plugins --disable-docs --disable-werror --disable-tools
	--disable-guest-agent --audio-drv-list= --disable-debug-info
	--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu)

say() { echo "vpmu: $*" >&2; }
die() { echo "vpmu: error: $*" >&2; exit 1; }

dsc=$("$root/tests/qemu/qemu-source.sh")
ver=$(basename "$dsc" .dsc)
ver=${ver#qemu_}
work=$cache/vpmu/$ver
pristine=$work/pristine src=$work/src bld=$work/build
mkdir -p "$work" "$out"

mapfile -t series < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/patches/series")
patches=()
for p in "${series[@]}"; do
	[[ -f $here/patches/$p ]] || die "patches/series names $p, which does not exist"
	patches+=("$here/patches/$p")
done
stamp=$( { cat "$0" "$here/patches/series" ${patches[@]+"${patches[@]}"};
	   printf '%s\n' "$ver" "${CONFIGURE[@]}"; } | sha256sum | cut -d' ' -f1)

# Copies the built binary to OUT, atomically and only when it differs: several runs may
# call this at once (the boot tests run two at a time), each with its own temporary name.
install_binary() {
	cmp -s "$bld/qemu-system-x86_64" "$out/qemu-system-x86_64" && return 0
	cp "$bld/qemu-system-x86_64" "$out/qemu-system-x86_64.tmp.$$"
	mv -f "$out/qemu-system-x86_64.tmp.$$" "$out/qemu-system-x86_64"
}

if [[ -x $bld/qemu-system-x86_64 && -f $work/stamp && $(cat "$work/stamp") == "$stamp" ]]; then
	install_binary
	say "up to date: qemu $ver + ${#patches[@]} patch(es)"
	exit 0
fi

if [[ ! -d $pristine ]]; then
	say "extracting Debian's qemu $ver (with Debian's own patches)"
	rm -rf "$pristine.tmp"
	dpkg-source --no-check -x "$dsc" "$pristine.tmp" >/dev/null
	mv "$pristine.tmp" "$pristine"
fi
if [[ ! -d $src ]]; then
	cp -a "$pristine" "$src.tmp"
	mv "$src.tmp" "$src"
	: >"$work/touched"
fi

# Files the series touches now, and those the last applied series touched.
touched_now=$(for p in ${patches[@]+"${patches[@]}"}; do
	sed -n -e 's#^+++ b/\([^\t ]*\).*#\1#p' -e 's#^--- a/\([^\t ]*\).*#\1#p' "$p"
done | { grep -v '^/dev/null$' || true; } | sort -u)
mapfile -t files < <({ printf '%s\n' "$touched_now"; cat "$work/touched"; } | sed '/^$/d' | sort -u)

stage=$work/stage
rm -rf "$stage"
mkdir -p "$stage"
for f in "${files[@]}"; do
	if [[ -f $pristine/$f ]]; then
		mkdir -p "$stage/$(dirname "$f")"
		cp -p "$pristine/$f" "$stage/$f"
	fi
done
for p in ${patches[@]+"${patches[@]}"}; do
	patch -d "$stage" -p1 --quiet --forward --no-backup-if-mismatch <"$p" >"$work/patch.log" 2>&1 ||
		{ cat "$work/patch.log" >&2; die "$(basename "$p") does not apply to qemu $ver"; }
done
changed=0
for f in "${files[@]}"; do
	if [[ -f $stage/$f ]]; then
		if ! cmp -s "$stage/$f" "$src/$f"; then
			mkdir -p "$src/$(dirname "$f")"
			cp "$stage/$f" "$src/$f"
			changed=$((changed + 1))
		fi
	elif [[ -e $src/$f ]]; then
		rm -f "$src/$f"
		changed=$((changed + 1))
	fi
done
printf '%s\n' "$touched_now" >"$work/touched"
say "qemu $ver + ${#patches[@]} patch(es): $changed file(s) changed"

if [[ ! -f $bld/build.ninja || ! -f $work/configured ||
      $(cat "$work/configured") != "${CONFIGURE[*]}" ]]; then
	say "configuring (about 25 s)"
	rm -rf "$bld"
	mkdir -p "$bld"
	(cd "$bld" && "$src/configure" "${CONFIGURE[@]}") >"$work/configure.log" 2>&1 ||
		{ tail -n 30 "$work/configure.log" >&2; die "configure failed (log: $work/configure.log)"; }
	echo "${CONFIGURE[*]}" >"$work/configured"
fi
say "building qemu-system-x86_64 (cold: about 5 min on 2 cores; warm ccache: under a minute)"
make -C "$bld" -j"$(nproc)" qemu-system-x86_64 >"$work/make.log" 2>&1 ||
	{ grep -E 'error|Error' "$work/make.log" | head -n 40 >&2; die "build failed (log: $work/make.log)"; }
echo "$stamp" >"$work/stamp"
install_binary
say "built $out/qemu-system-x86_64"
