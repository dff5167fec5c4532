/* SPDX-License-Identifier: GPL-2.0 */
/* Shim for the kernel's <linux/cfi_types.h>: everything is in shim.h. */
#include "../shim.h"
