/* SPDX-License-Identifier: GPL-2.0 */
/* Shim for <asm/types.h> in user space: the kernel types come from kshim.h. */
#ifndef KSHIM_ASM_TYPES_H
#define KSHIM_ASM_TYPES_H
#include "../kshim.h"
#endif
