/* SPDX-License-Identifier: GPL-2.0 */
/* Shim for <linux/kernel.h> in user space: the kernel types come from kshim.h. */
#ifndef KSHIM_LINUX_KERNEL_H
#define KSHIM_LINUX_KERNEL_H
#include "../kshim.h"
#endif
