/* SPDX-License-Identifier: MIT */
/*
 * /init of the Linux guest that ./run.sh linux boots (Debian's kernel, an initramfs of this
 * and pmuboot-linux): mounts /proc and /sys, runs /pmuboot-linux with the arguments given
 * on the kernel command line after "--" (the kernel passes them to init), prints its exit
 * status as "# guest: pmuboot-linux exited N" for run.sh, and powers the machine off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *args[32] = { "/pmuboot-linux" };
	int n = 1, status = 0;
	pid_t pid;

	if (mount("proc", "/proc", "proc", 0, NULL) || mount("sysfs", "/sys", "sysfs", 0, NULL))
		printf("# guest: mounting /proc and /sys: %s\n", strerror(errno));
	for (int i = 1; i < argc && n < 31; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(args[0], args);
		printf("# guest: exec %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		printf("# guest: running %s: %s\n", args[0], strerror(errno));
	else
		printf("# guest: pmuboot-linux exited %d\n",
		       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
