/* SPDX-License-Identifier: MIT */
/*
 * The firmware's folders and their arrows (docs/DEVELOPING.md): every quoted #include of a
 * firmware source points to its own folder or one below it, boot -> harness -> checks ->
 * measure -> expect/kernels -> pmu -> arch -> lib, except the harness's interface that
 * checks and engines are written against (INTERFACE). And every check that CHECK_DEFINE
 * declares is described in docs/checks.md. Run from the repository root (make host-test).
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

/* Folders, deepest first: a file may include from its own rank or a lower one. */
static const struct layer {
	const char *dir;
	int rank;
} layers[] = {
	{ "lib", 0 },
	{ "arch/x86", 1 },
	{ "pmu", 2 },
	{ "tests/kernels", 3 },
	{ "tests/expect", 3 },
	{ "tests/measure", 4 },
	{ "tests/checks", 5 },
	{ "tests/linux", 5 },	/* pmuboot-linux: the checks' level, from Linux user space */
	{ "tests/harness", 6 },
	{ "boot", 7 },
};

/* What a check or an engine may include of the harness: the check API (CHECK_DEFINE, the
 * result helpers), its env, the parsed options' types, and what the cleanup found. */
static const char *const INTERFACE[] = {
	"tests/harness/check.h", "tests/harness/env.h", "tests/harness/options.h",
	"tests/harness/measure_opt.h", "tests/harness/cleanup.h",
};

static int rank_of_dir(const char *path, size_t dirlen)
{
	for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]); i++)
		if (strlen(layers[i].dir) == dirlen && !strncmp(layers[i].dir, path, dirlen))
			return layers[i].rank;
	return -1;
}

static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static bool is_interface(const char *inc)
{
	for (size_t i = 0; i < sizeof(INTERFACE) / sizeof(INTERFACE[0]); i++)
		if (!strcmp(inc, INTERFACE[i]))
			return true;
	return false;
}

/* Violations in the text of the file at path, each printed. */
static int check_text(const char *path, const char *text)
{
	const char *p;
	size_t dl = dir_len(path);
	int own = rank_of_dir(path, dl), bad = 0;

	for (p = text; (p = strstr(p, "#include \"")); p++) {
		char inc[256];
		const char *s = p + 10, *e = strchr(s, '"');
		int to;

		if (!e || (size_t)(e - s) >= sizeof(inc))
			continue;
		memcpy(inc, s, (size_t)(e - s));
		inc[e - s] = '\0';
		to = rank_of_dir(inc, dir_len(inc));
		if (to < 0 || (dir_len(inc) == dl && !strncmp(inc, path, dl)))
			continue;	/* outside the firmware (efi.h, generated), or its own folder */
		if (to > own && !(own >= 3 && is_interface(inc))) {
			printf("# %s includes %s: an arrow up (rank %d -> %d)\n", path, inc, own, to);
			bad++;
		}
	}
	return bad;
}

/* Violations in one file; -1 when it cannot be read. */
static int check_file(const char *path)
{
	char *text = slurp(path);
	int bad;

	if (!text)
		return -1;
	bad = check_text(path, text);
	free(text);
	return bad;
}

static void test_arrows_point_down(void **state)
{
	unsigned files = 0;
	int bad = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]); i++) {
		static const char *const ext[] = { "c", "h", "S" };

		for (size_t x = 0; x < 3; x++) {
			char pat[128];
			glob_t g;

			snprintf(pat, sizeof(pat), "%s/*.%s", layers[i].dir, ext[x]);
			if (glob(pat, 0, NULL, &g))
				continue;
			for (size_t k = 0; k < g.gl_pathc; k++) {
				int r = check_file(g.gl_pathv[k]);

				assert_true(r >= 0);
				bad += r;
				files++;
			}
			globfree(&g);
		}
	}
	printf("# %u files, %d arrows up\n", files, bad);
	assert_true(files > 100);	/* run from the repository root */
	assert_int_equal(bad, 0);
}

/* A file that includes upward is caught (the test can fail). */
static void test_arrow_up_caught(void **state)
{
	(void)state;
	assert_int_equal(check_text("tests/checks/probe.c", "#include \"tests/harness/runner.h\"\n"
				    "#include \"tests/harness/check.h\"\n#include \"pmu/pmu.h\"\n"), 1);
	assert_int_equal(check_text("tests/expect/probe.c", "#include \"tests/measure/region.h\"\n"), 1);
	assert_int_equal(check_text("pmu/probe.c", "#include \"tests/harness/check.h\"\n"), 1);
	assert_int_equal(check_text("boot/probe.c", "#include \"tests/harness/runner.h\"\n"), 0);
}

/* Every CHECK_DEFINE's name appears in docs/checks.md as `name`. */
static void test_checks_documented(void **state)
{
	char *doc = slurp("docs/checks.md");
	unsigned checks = 0, missing = 0;
	glob_t g;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(glob("tests/checks/*.c", 0, NULL, &g), 0);
	for (size_t k = 0; k < g.gl_pathc; k++) {
		char *text = slurp(g.gl_pathv[k]), *p;

		assert_non_null(text);
		for (p = text; (p = strstr(p, "\nCHECK_DEFINE(")); p++) {
			char name[96], quoted[100];
			const char *s = strchr(p, '"'), *e = s ? strchr(s + 1, '"') : NULL;

			if (!e || (size_t)(e - s) > sizeof(name))
				continue;
			memcpy(name, s + 1, (size_t)(e - s - 1));
			name[e - s - 1] = '\0';
			snprintf(quoted, sizeof(quoted), "`%s`", name);
			checks++;
			if (!strstr(doc, quoted)) {
				printf("# %s (%s) is not in docs/checks.md\n", name, g.gl_pathv[k]);
				missing++;
			}
		}
		free(text);
	}
	globfree(&g);
	/* The seed-event checks, one per line X(model, order, description) of the models'
	 * list, which tests/checks/events.c turns into CHECK_DEFINEs (events.<model>). */
	{
		char *models = slurp("tests/expect/seed_models.h"), *p;

		assert_non_null(models);
		for (p = models; (p = strstr(p, "\tX(")); p++) {
			char name[64], quoted[70];
			const char *s = p + 3, *e = strchr(s, ',');

			if (!e || (size_t)(e - s) >= sizeof(name) - 8)
				continue;
			snprintf(name, sizeof(name), "events.%.*s", (int)(e - s), s);
			snprintf(quoted, sizeof(quoted), "`%s`", name);
			checks++;
			if (!strstr(doc, quoted)) {
				printf("# %s (tests/expect/seed_models.h) is not in docs/checks.md\n",
				       name);
				missing++;
			}
		}
		free(models);
	}
	free(doc);
	printf("# %u checks, %u undocumented\n", checks, missing);
	assert_true(checks >= 86);
	assert_int_equal(missing, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arrows_point_down),
		cmocka_unit_test(test_arrow_up_caught),
		cmocka_unit_test(test_checks_documented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
