#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/linux/linux-test.sh [BINARY]: pmuboot-linux on this machine, whatever its PMU. Where
# Linux counts (a PMU the kernel drives, perf_event_paranoid permitting), every check must
# pass; where it cannot, every counter check must SKIP naming why while the kernels still run
# and time themselves. Either way the output is TAP whose plan and summary agree, and bad
# input is refused with a status of 2. Ends with "N passed, N failed".
set -u
bin=${1:-build/pmuboot-linux}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }

out=$(timeout 600 "$bin" --no-bench 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^# (cpu|kernel|hypervisor|perf pmu|counting):'
[[ $(printf '%s\n' "$out" | grep -c '^TAP version 13$') == 1 ]] && ok "one TAP version line" ||
	bad "no (or more than one) 'TAP version 13' line"
checks=$(printf '%s\n' "$out" | grep -cE '^(ok|not ok) [0-9]+ ')
skips=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+ [^ ]+ # SKIP ')
fails=$(printf '%s\n' "$out" | grep -E '^not ok [0-9]+ ')
plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
summary=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, ' | tail -n 1)

[[ -z $fails && $rc == 0 ]] && ok "every check passed or skipped (rc $rc)" ||
	bad "rc $rc; failed: ${fails:-none}"
[[ $checks -gt 40 && $plan == "$checks" ]] && ok "plan 1..$plan covers the $checks checks" ||
	bad "plan '$plan' against $checks check lines"
[[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ &&
	${BASH_REMATCH[3]} == "$skips" ]] && ok "summary agrees: $summary" ||
	bad "summary '$summary' against $skips SKIP lines"
# Every SKIP says why, with more than a word.
if printf '%s\n' "$out" | grep -E '^ok [0-9]+ [^ ]+ # SKIP ' | grep -vqE '# SKIP .{20,}'; then
	bad "a SKIP without a reason"
else
	ok "every SKIP names its reason"
fi
if printf '%s\n' "$out" | grep -q '^# counting: perf_event_open'; then
	# No counting here: nothing may pass, every model case still runs and times itself.
	models=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+ model\.')
	times=$(printf '%s\n' "$out" | grep -cE '^# time: model\.[a-z0-9_]+ n=[0-9]+ tsc=[0-9]+ ')
	[[ $skips == "$checks" ]] && ok "no PMU: all $checks checks SKIP" ||
		bad "no PMU, yet $((checks - skips)) checks did not SKIP"
	[[ $models -gt 30 && $times == "$models" ]] && ok "no PMU: the $models kernels timed themselves" ||
		bad "no PMU: $times time lines for $models model cases"
else
	passed=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+ model\.[^#]*# measured=')
	[[ $passed -gt 30 ]] && ok "a PMU counts: $passed kernel models exact" ||
		bad "a PMU counts, yet only $passed model checks measured"
fi
# Bad input: a clear error naming it, status 2.
err=$("$bin" --bogus 2>&1 >/dev/null)
rc=$?
[[ $rc == 2 && $err == *"unknown argument '--bogus'"* ]] && ok "bad argument refused (rc 2)" ||
	bad "bad argument: rc $rc, '$err'"
# The benchmarks print the firmware's data lines: one per working set and kernel.
b=$(timeout 300 "$bin" --bench-only 2>&1 | grep -cE '^# data: (chase_latency ws_bytes=[0-9]+ loads=[0-9]+ tsc=[0-9]+ tsc_per_load=[0-9.]+ ns_per_load=|store_bandwidth kernel=[a-z_]+ bytes=[0-9]+ tsc=[0-9]+ bytes_per_tsc=[0-9.]+ mb_per_s=)[0-9.]+$')
[[ $b == 8 ]] && ok "--bench-only: 8 data lines" || bad "--bench-only: $b data lines, want 8"
echo "$pass passed, $fail failed"
((fail == 0))
