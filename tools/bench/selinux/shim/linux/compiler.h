/* SPDX-License-Identifier: GPL-2.0 */
/* Shim for <linux/compiler.h> in user space: the kernel types come from kshim.h. */
#ifndef KSHIM_LINUX_COMPILER_H
#define KSHIM_LINUX_COMPILER_H
#include "../kshim.h"
#endif
