/* SPDX-License-Identifier: MIT */
/*
 * mkcpio OUT NAME=FILE...: an initramfs (the kernel's "newc" cpio format, Documentation/
 * driver-api/early-userspace/buffer-format.rst) holding the directories dev, proc and sys,
 * the console device node, and each FILE as NAME, executable. Enough for ./run.sh linux,
 * without cpio or root on the host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

static unsigned long ino = 1;

static int entry(FILE *out, const char *name, unsigned mode, unsigned rmaj, unsigned rmin,
		 const void *data, unsigned long size)
{
	unsigned long namesize = strlen(name) + 1;
	static const char zeros[4];

	fprintf(out, "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08lX%08X", ino++, mode,
		0, 0, 1, 0, size, 0, 0, rmaj, rmin, namesize, 0);
	fwrite(name, 1, namesize, out);
	fwrite(zeros, 1, (4 - (110 + namesize) % 4) % 4, out);
	if (size) {
		fwrite(data, 1, size, out);
		fwrite(zeros, 1, (4 - size % 4) % 4, out);
	}
	return ferror(out) ? -1 : 0;
}

int main(int argc, char **argv)
{
	FILE *out;

	if (argc < 3) {
		fprintf(stderr, "usage: mkcpio OUT NAME=FILE...\n");
		return 2;
	}
	out = fopen(argv[1], "wb");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	entry(out, "dev", S_IFDIR | 0755, 0, 0, NULL, 0);
	entry(out, "dev/console", S_IFCHR | 0600, 5, 1, NULL, 0);
	entry(out, "proc", S_IFDIR | 0755, 0, 0, NULL, 0);
	entry(out, "sys", S_IFDIR | 0755, 0, 0, NULL, 0);
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		FILE *f;
		long size;
		char *data;

		if (!eq || eq == argv[i] || !eq[1]) {
			fprintf(stderr, "mkcpio: '%s' is not NAME=FILE\n", argv[i]);
			return 2;
		}
		*eq = 0;
		f = fopen(eq + 1, "rb");
		if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			fprintf(stderr, "mkcpio: cannot read '%s'\n", eq + 1);
			return 1;
		}
		data = malloc(size ? (size_t)size : 1);
		if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
			fprintf(stderr, "mkcpio: cannot read '%s'\n", eq + 1);
			return 1;
		}
		fclose(f);
		if (entry(out, argv[i], S_IFREG | 0755, 0, 0, data, (unsigned long)size))
			break;
		free(data);
	}
	entry(out, "TRAILER!!!", 0, 0, 0, NULL, 0);
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
