/* SPDX-License-Identifier: MIT */
/*
 * The seed models, one line each: X(model, order, description). Each is a file
 * tests/expect/seed_<model>.c that defines `const struct events_model seed_model_<model>`
 * (its seed, CPU, catalogs and rows; tests/expect/seed.h), and a check events.<model> run at
 * ORDER (tests/harness/check.h's CHECK_DEFINE) that `list` describes as DESCRIPTION. Adding a
 * model: its file, and its line here (and its check in docs/checks.md).
 */
#ifndef TESTS_EXPECT_SEED_MODELS_H
#define TESTS_EXPECT_SEED_MODELS_H

#define SEED_MODELS(X)									\
	X(nhm, 640, "seed 000's Nehalem event against its expectation (tests/expect/seed_nhm.c)") \
	X(skl, 650, "seed 001's Skylake client uncore event against its expectation "		\
		    "(tests/expect/seed_skl.c)")

#endif /* TESTS_EXPECT_SEED_MODELS_H */
