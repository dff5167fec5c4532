/* SPDX-License-Identifier: GPL-2.0 */
/* Shim for <linux/unaligned/packed_struct.h>, needed to compile jhash.h. */
#ifndef KSHIM_LINUX_UNALIGNED_PACKED_STRUCT_H
#define KSHIM_LINUX_UNALIGNED_PACKED_STRUCT_H
#include "../../kshim.h"

static inline u32 __get_unaligned_cpu32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}
#endif
