#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Puts qemu-plugin.h for the installed QEMU into DIR (default build/qemu-src), taken from
# Debian's QEMU source package of exactly the installed version (tests/qemu/qemu-source.sh
# downloads it into the cache outside the clone). The header is never committed.
set -euo pipefail
dest=${1:-build/qemu-src}
mkdir -p "$dest"
here=$(cd "$(dirname "$0")" && pwd)
dsc=$("$here/qemu-source.sh")
dir=$(dirname "$dsc")
orig=$(compgen -G "$dir/qemu_*.orig.tar.*" | head -n 1)
deb=$(compgen -G "$dir/qemu_*.debian.tar.*" | head -n 1)
# Debian's patches must leave the header alone, or the upstream copy would not match.
if [[ -n $deb ]] && tar -xOf "$deb" --wildcards 'debian/patches/*' 2>/dev/null |
	grep -q '^+++ .*include/qemu/qemu-plugin\.h'; then
	echo "fetch-plugin-header: Debian patches qemu-plugin.h; apply the patch here first" >&2
	exit 1
fi
# A temporary of this process's own: two run.sh --oracle started together may both find the
# header out of date, and a shared name let one move the other's file away.
tmp="$dest/qemu-plugin.h.tmp.$$"
tar -xOf "$orig" --wildcards '*/include/qemu/qemu-plugin.h' >"$tmp"
mv -f "$tmp" "$dest/qemu-plugin.h"
echo "fetch-plugin-header: qemu-plugin.h from $(basename "$dsc" .dsc)" >&2
