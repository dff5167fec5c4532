/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim for <linux/hash.h>: gen/<tree>-types.h includes the tree's own
 * include/linux/hash.h by path before anything that includes <linux/hash.h>,
 * so the include guard below it is already set; refuse anything else.
 */
#ifndef _LINUX_HASH_H
#error "include the tree's include/linux/hash.h (gen/<tree>-types.h) first"
#endif
