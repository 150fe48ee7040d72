/* SPDX-License-Identifier: MIT */
/* The seed-event checks' report of what they cover (tests/checks/events.c). */
#ifndef TESTS_CHECKS_EVENTS_H
#define TESTS_CHECKS_EVENTS_H

/* `list=coverage`: per model, the events with an expectation and those without, and why. */
void events_coverage_print(void);

#endif /* TESTS_CHECKS_EVENTS_H */
