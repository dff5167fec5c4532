/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim for <linux/bitops.h>: rol32()/rol64()/ror32() are extracted from the
 * tree's own include/linux/bitops.h into gen/<tree>-types.h, which is always
 * included first.
 */
#ifndef KSHIM_LINUX_BITOPS_H
#define KSHIM_LINUX_BITOPS_H
#include "../kshim.h"
#endif
