#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Puts qemu-plugin.h for the installed QEMU into DIR (default build/qemu-src), taken from
# Debian's QEMU source package of exactly the installed version (apt-get source, which
# needs a deb-src entry: added when running as root and none is configured). The header
# is never committed to the repository.
set -euo pipefail
dest=${1:-build/qemu-src}
mkdir -p "$dest/download"
dest=$(cd "$dest" && pwd)

ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	{ echo "fetch-plugin-header: qemu-system-x86 is not installed" >&2; exit 1; }

have_source() { compgen -G "$dest/download/qemu_*.orig.tar.*" >/dev/null; }

download() {
	(cd "$dest/download" && apt-get source --download-only -qq "qemu=$ver") >/dev/null 2>&1
}

add_deb_src() {
	# Mirror the machine's Debian entries as deb-src (deb822 or one-line format).
	local f=/etc/apt/sources.list.d/pmuboot-deb-src.sources
	if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$f"
	elif [[ -f /etc/apt/sources.list ]]; then
		sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list >/etc/apt/sources.list.d/pmuboot-deb-src.list
	else
		echo "fetch-plugin-header: no Debian apt sources to derive deb-src from" >&2
		exit 1
	fi
	apt-get update -qq
}

if ! have_source; then
	if ! download; then
		if [[ $(id -u) != 0 ]]; then
			echo "fetch-plugin-header: apt-get source qemu=$ver failed; as root, add a deb-src" \
				"entry for Debian and run: apt-get update" >&2
			exit 1
		fi
		add_deb_src
		download || { echo "fetch-plugin-header: apt-get source qemu=$ver failed" >&2; exit 1; }
	fi
fi

orig=$(compgen -G "$dest/download/qemu_*.orig.tar.*" | head -n 1)
deb=$(compgen -G "$dest/download/qemu_*.debian.tar.*" | head -n 1)
# Debian's patches must leave the header alone, or the upstream copy would not match.
if [[ -n $deb ]] && tar -xOf "$deb" --wildcards 'debian/patches/*' 2>/dev/null |
	grep -q '^+++ .*include/qemu/qemu-plugin\.h'; then
	echo "fetch-plugin-header: Debian patches qemu-plugin.h; apply the patch here first" >&2
	exit 1
fi
tar -xOf "$orig" --wildcards '*/include/qemu/qemu-plugin.h' >"$dest/qemu-plugin.h.tmp"
mv "$dest/qemu-plugin.h.tmp" "$dest/qemu-plugin.h"
echo "fetch-plugin-header: qemu-plugin.h from qemu $ver" >&2
