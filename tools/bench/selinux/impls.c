// SPDX-License-Identifier: GPL-2.0
/* impls.c - the model's columns, in report order. */
#include "impls.h"

extern const struct hash_impl impl_old, impl_mainline, impl_c2020,
	impl_c2020stc, impl_cpack64, impl_cadd64, impl_cpack2m, impl_crol2m,
	impl_cmad, impl_cjhash;
#ifdef HAVE_NEW
extern const struct hash_impl impl_new;
#endif

static const struct hash_impl *const all[] = {
	&impl_old,
#ifdef HAVE_NEW
	&impl_new,
#endif
	&impl_mainline,
	&impl_c2020,
	&impl_c2020stc,
	&impl_cpack64,
	&impl_cadd64,
	&impl_cpack2m,
	&impl_crol2m,
	&impl_cmad,
	&impl_cjhash,
};

int impl_list(const struct hash_impl **out, int max)
{
	int n = 0;

	for (unsigned int i = 0; i < sizeof(all) / sizeof(all[0]) && n < max; i++)
		out[n++] = all[i];
	return n;
}

int impl_have_new(void)
{
#ifdef HAVE_NEW
	return 1;
#else
	return 0;
#endif
}
