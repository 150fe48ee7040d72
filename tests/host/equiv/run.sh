#!/bin/sh
# SPDX-License-Identifier: MIT
# Transitional: evaluates the two old representations (tests/events_table.c's EXACT/RANGE/
# IDENT/CONTRAST rows, tests/expect_uncore_rows.c's constraint rows, copied from 3eb6240 into
# old/) and the one table over the same synthetic counts; exits 1 on any difference.
set -e
cd "$(dirname "$0")"
R=../../..
B=$(mktemp -d)
D="-Devents_rows=old_events_rows -Devents_nrows=old_events_nrows -Devents_eval=old_events_eval
   -Devents_models=old_events_models -Devents_model_by_name=old_events_model_by_name
   -Devents_iters=old_events_iters -Dev_kernel_name=old_ev_kernel_name
   -Devents_terms=old_events_terms -Devents_row_ok=old_events_row_ok"
gcc -std=gnu11 -DPMUBOOT_HOST -O1 -w -Iold -I$R $D -c old_glue.c -o $B/og.o
for f in events events_table expect_uncore expect_uncore_rows; do
	gcc -std=gnu11 -DPMUBOOT_HOST -O1 -w -Iold -I$R $D -c old/tests/$f.c -o $B/old_$f.o
done
gcc -std=gnu11 -DPMUBOOT_HOST -O1 -Wall -I$R equiv_main.c $R/tests/events.c $R/tests/events_table.c \
	$R/lib/fmt.c $R/lib/string.c $B/og.o $B/old_*.o -o $B/equiv
$B/equiv
