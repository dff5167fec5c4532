/* SPDX-License-Identifier: GPL-2.0 */
/* Shim for <linux/types.h> in user space: the kernel types come from kshim.h. */
#ifndef KSHIM_LINUX_TYPES_H
#define KSHIM_LINUX_TYPES_H
#include "../kshim.h"
#endif
