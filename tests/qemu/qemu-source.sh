#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes sure Debian's source package of exactly the installed qemu-system-x86 is in DIR
# (default: $PMUBOOT_CACHE/qemu-source, outside any clone, so every clone and CI rerun on
# this machine shares one download) and prints the path of its .dsc. The version is read
# from dpkg, never written down anywhere. apt-get source needs a deb-src entry: one is
# added (mirroring the machine's Debian entries) when running as root and none works.
set -euo pipefail
cache=${PMUBOOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pmuboot}
dest=${1:-$cache/qemu-source}

ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	{ echo "qemu-source: qemu-system-x86 is not installed" >&2; exit 1; }
# dpkg-source names files without the epoch.
dsc="$dest/qemu_${ver#*:}.dsc"
mkdir -p "$dest"

download() {
	(cd "$dest" && apt-get source --download-only -qq "qemu=$ver") >/dev/null 2>&1
}

add_deb_src() {
	local f=/etc/apt/sources.list.d/pmuboot-deb-src.sources
	if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
		sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$f"
	elif [[ -f /etc/apt/sources.list ]]; then
		sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list >/etc/apt/sources.list.d/pmuboot-deb-src.list
	else
		echo "qemu-source: no Debian apt sources to derive deb-src from" >&2
		exit 1
	fi
	apt-get update -qq
}

if [[ ! -f $dsc ]]; then
	if ! download; then
		if [[ $(id -u) != 0 ]]; then
			echo "qemu-source: apt-get source qemu=$ver failed; as root, add a deb-src entry" \
				"for Debian and run: apt-get update" >&2
			exit 1
		fi
		add_deb_src
		download || { echo "qemu-source: apt-get source qemu=$ver failed" >&2; exit 1; }
	fi
fi
[[ -f $dsc ]] || { echo "qemu-source: $dsc missing after download" >&2; exit 1; }
echo "$dsc"
