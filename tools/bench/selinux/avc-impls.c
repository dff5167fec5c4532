// SPDX-License-Identifier: GPL-2.0
/* avc-impls.c - the AVC columns at each size (avc-impl.c) and the points. */
#include "avc-model.h"

#define DECL(b) extern const struct avc_impl avc_impl_old_##b, avc_impl_mainline_##b, \
	avc_impl_new_##b;
DECL(9) DECL(10) DECL(11) DECL(12) DECL(13) DECL(14)

#ifdef HAVE_NEW
#define ROW(b) { &avc_impl_old_##b, &avc_impl_mainline_##b, &avc_impl_new_##b }
#else
#define ROW(b) { &avc_impl_old_##b, &avc_impl_mainline_##b, 0 }
#endif

static const struct avc_impl *const all[AVC_NSIZES][AVC_MAX_COLS] = {
	ROW(9), ROW(10), ROW(11), ROW(12), ROW(13), ROW(14),
};

int avc_impl_list(unsigned int bits, const struct avc_impl **out, int max)
{
	int n = 0;

	if (bits < AVC_BITS_MIN || bits > AVC_BITS_MAX)
		return 0;
	for (int i = 0; i < AVC_MAX_COLS && n < max; i++)
		if (all[bits - AVC_BITS_MIN][i])
			out[n++] = all[bits - AVC_BITS_MIN][i];
	return n;
}

/*
 * Hongru Zhang's phone data ("[PATCH v4 3/3] selinux: improve bucket
 * distribution uniformity of avc_hash()", 23 Oct 2025): bucket use and
 * longest chain before (6.12's shift-xor) and after (av_hash), at
 * 512 nodes/512 buckets, 2048/512 and 8192/8192.
 */
const struct avc_point avc_points[AVC_NPOINTS] = {
	{ 9, 512, 52.5, 7.5, 60.2, 5.7 },
	{ 10, 1024, 0, 0, 0, 0 },
	{ 11, 2048, 0, 0, 0, 0 },
	{ 12, 4096, 0, 0, 0, 0 },
	{ 13, 8192, 49.5, 11.4, 60.3, 7.4 },
	{ 14, 16384, 0, 0, 0, 0 },
	{ 9, 2048, 83.7, 19.4, 93.4, 16.3 },
};
