/* SPDX-License-Identifier: GPL-2.0 */
/* The NEW tree's rep_movs_alternative(), renamed (UAB_SRC: see Kbuild). */
#define rep_movs_alternative uab_new_rep_movs_alternative
#include UAB_SRC
