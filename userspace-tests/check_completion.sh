#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The bash completion of mrc-ip offers what the grammar allows at each
# position. bash-completion's helpers are stubbed: only our logic is tested.
set -u
_init_completion() {
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	words=("${COMP_WORDS[@]}")
	cword=$COMP_CWORD
}
_filedir() { COMPREPLY=(FILES); }
# shellcheck source=/dev/null
source "$1" || exit 1
fail=0
expect() {
	local want=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_mrc_ip
	if [ "${COMPREPLY[*]}" != "$want" ]; then
		echo "[$*]: got '${COMPREPLY[*]}', want '$want'"
		fail=1
	fi
}
expect "dev port evfmt evprofile path ccprofile qp stats monitor probe help" mrc-ip ""
expect "evfmt evprofile" mrc-ip -j e
expect "-json" mrc-ip -s -j
expect "FILES" mrc-ip -b ""
expect "show set help" mrc-ip d ""
expect "show add set deny undeny replace del help" mrc-ip path ""
expect "stev udp srv6" mrc-ip -n ns evfmt add dev m mode ""
expect "explicit generated" mrc-ip evprofile add dev m mode ""
expect "init offline online" mrc-ip ccprofile set dev m id 1 state ""
expect "good bad all none" mrc-ip path set dev m id 1 events ""
expect "mrc-window uet-1.0-nscc" mrc-ip ccprofile add dev m alg ""
expect "if-default open admin group" mrc-ip path set dev m id 1 access ""
expect "access" mrc-ip ccprofile set dev m id 1 ac
expect "root" mrc-ip evprofile set dev m id 1 access group gid roo
expect "state" mrc-ip evprofile set dev m id 1 st
expect "up" mrc-ip port set mrc0 u
expect "to tc timeout" mrc-ip probe dev m t
expect "udp stev srv6" mrc-ip probe dev m to ::1 ev 1 mode ""
expect "dev evprofile qpn help" mrc-ip monitor ""
expect "qpn" mrc-ip qp show dev m q
expect "dev id evs help" mrc-ip pa s ""
expect "dev id index ev help" mrc-ip evp den ""
expect "" mrc-ip e s ""
[ $fail -eq 0 ] && echo "completion: all cases passed"
exit $fail
