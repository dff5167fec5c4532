/* SPDX-License-Identifier: GPL-2.0 */
/* Shim for the kernel's <asm/export.h>: everything is in shim.h. */
#include "../shim.h"
