/* SPDX-License-Identifier: MIT */
/*
 * The catalogs generated from libpfm4 at build time (tests/host/gen_catalog.c writes
 * build/gen/pmu/catalog_<model>.c for each; pmu/catalog.c lists them): one list, read by both.
 * X(model, title, unit): model is libpfm4's PMU name and the catalog's short name; the
 * generated catalog is named pmu_catalog_<model>.
 */
#ifndef PMU_CATALOG_MODELS_H
#define PMU_CATALOG_MODELS_H

#define PMU_CATALOG_GENERATED(X)					\
	X(core,		"Intel Core 2 core",			PMU_UNIT_CORE)		\
	X(atom,		"Intel Atom (Bonnell, Saltwell) core",	PMU_UNIT_CORE)		\
	X(nhm,		"Intel Nehalem core",			PMU_UNIT_CORE)		\
	X(nhm_unc,	"Intel Nehalem uncore",			PMU_UNIT_NHM_UNC)	\
	X(wsm,		"Intel Westmere core",			PMU_UNIT_CORE)		\
	X(wsm_unc,	"Intel Westmere uncore",		PMU_UNIT_NHM_UNC)	\
	X(snb,		"Intel Sandy Bridge core",		PMU_UNIT_CORE)		\
	X(ivb,		"Intel Ivy Bridge core",		PMU_UNIT_CORE)		\
	X(hsw,		"Intel Haswell core",			PMU_UNIT_CORE)		\
	X(bdw,		"Intel Broadwell core",			PMU_UNIT_CORE)		\
	X(skl,		"Intel Skylake core",			PMU_UNIT_CORE)		\
	X(skx,		"Intel Skylake-X core",			PMU_UNIT_CORE)		\
	X(icl,		"Intel Ice Lake core",			PMU_UNIT_CORE)		\
	X(icx,		"Intel Ice Lake-X core",		PMU_UNIT_CORE)		\
	X(spr,		"Intel Sapphire Rapids core",		PMU_UNIT_CORE)		\
	X(slm,		"Intel Silvermont core",		PMU_UNIT_CORE)		\
	X(glm,		"Intel Goldmont core",			PMU_UNIT_CORE)		\
	X(tmt,		"Intel Tremont core",			PMU_UNIT_CORE)		\
	X(knl,		"Intel Knights Landing core",		PMU_UNIT_CORE)		\
	X(knm,		"Intel Knights Mill core",		PMU_UNIT_CORE)

#endif /* PMU_CATALOG_MODELS_H */
