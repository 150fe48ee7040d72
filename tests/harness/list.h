/* SPDX-License-Identifier: MIT */
/* What `list=events` prints. */
#ifndef TESTS_HARNESS_LIST_H
#define TESTS_HARNESS_LIST_H

/* `list=events`: every event of the catalogs of this CPU (tests/harness/list.c). */
void events_list_print(void);

#endif /* TESTS_HARNESS_LIST_H */
