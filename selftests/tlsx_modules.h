/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx_modules.h - load and unload tlsx.ko and the kernel's tls from a
 * selftest in the VM (drop-in mode: tlsx registered as "tls").
 */
#ifndef TLSX_MODULES_H
#define TLSX_MODULES_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TLSX_KO "/tlsx/tlsx.ko"

static inline int load_tlsx(const char *params)
{
	int fd = open(TLSX_KO, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

/* Unload @name, retrying while closed sockets are still being destroyed. */
static inline int unload(const char *name)
{
	int i;

	for (i = 0; i < 300; i++) {
		if (!syscall(SYS_delete_module, name, O_NONBLOCK))
			return 0;
		if (errno == ENOENT)
			return 0;
		if (errno != EWOULDBLOCK && errno != EAGAIN)
			return -errno;
		usleep(10000);
	}
	return -EBUSY;
}

static inline int module_loaded(const char *name)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	return !stat(path, &st);
}

static inline int load_with_modprobe(const char *name)
{
	char cmd[64];
	int status;

	snprintf(cmd, sizeof(cmd), "modprobe %s", name);
	status = system(cmd);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

#endif /* TLSX_MODULES_H */
