/* SPDX-License-Identifier: GPL-2.0 */
/* impls.h - the model's columns, in report order. */
#ifndef IMPLS_H
#define IMPLS_H

#include "model.h"

/* fill @out (room for @max) with the columns, OLD first; returns the count */
int impl_list(const struct hash_impl **out, int max);
/* was the model built with a NEW tree that has hash3.h? */
int impl_have_new(void);

#endif /* IMPLS_H */
