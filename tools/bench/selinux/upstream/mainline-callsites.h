/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ORIGIN: the call sites of mainline's av_hash() (upstream/hash.h), as added
 * by "[PATCH v4 3/3] selinux: improve bucket distribution uniformity of
 * avc_hash()" (Hongru Zhang, selinux@vger.kernel.org, 23 Oct 2025), the
 * patch that turned avtab_hash() into av_hash() in
 * security/selinux/include/hash.h:
 *   security/selinux/ss/avtab.c: avtab_hash() -> av_hash(class, target, source)
 *   security/selinux/avc.c:      avc_hash()   -> av_hash(ssid, tsid, tclass)
 * Both bodies below are copied from that patch; AVC_CACHE_SLOTS is the
 * 6.12 tree's (512), as the model compares at 6.12's sizes.
 */
#ifndef MAINLINE_CALLSITES_H
#define MAINLINE_CALLSITES_H

#define KTREE_AVTAB_HASH_ARG_MASK 1

static inline u32 avtab_hash(const struct avtab_key *keyp, u32 mask)
{
	return av_hash((u32)keyp->target_class, (u32)keyp->target_type,
			(u32)keyp->source_type, mask);
}

static inline u32 avc_hash(u32 ssid, u32 tsid, u16 tclass)
{
	return av_hash(ssid, tsid, (u32)tclass, (u32)(AVC_CACHE_SLOTS - 1));
}

#endif /* MAINLINE_CALLSITES_H */
