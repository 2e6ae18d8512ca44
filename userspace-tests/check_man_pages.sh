#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every man page under the given folder renders without a single groff or
# man warning, and mrc-ip has one page per object.
set -u
dir=$1
status=0
for obj in "" -dev -port -evfmt -evprofile -ccprofile -qp -stats -monitor -probe; do
	[ -f "$dir/mrc-ip$obj.8" ] || { echo "missing $dir/mrc-ip$obj.8"; status=1; }
done
for page in "$dir"/*.8; do
	out=$(groff -ww -z -man "$page" 2>&1)
	if [ -n "$out" ]; then
		echo "$page: groff warnings:"; echo "$out"; status=1
	fi
	if command -v man >/dev/null 2>&1; then
		out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
		if [ -n "$out" ]; then
			echo "$page: man warnings:"; echo "$out"; status=1
		fi
	fi
done
[ $status -eq 0 ] && echo "man pages clean: $(ls "$dir"/*.8 | wc -l)"
exit $status
