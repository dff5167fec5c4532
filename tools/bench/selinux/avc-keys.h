/* SPDX-License-Identifier: GPL-2.0 */
/* avc-keys.h - synthetic AVC key sets (ssid, tsid, tclass). */
#ifndef AVC_KEYS_H
#define AVC_KEYS_H

#include <stdint.h>

enum avc_set {
	AVC_UNIFORM,	/* ssid, tsid uniform over all SIDs */
	AVC_ZIPF,	/* ssid Zipf(1.0)-distributed over all SIDs */
	AVC_DOMINANT,	/* one ssid for every entry */
	AVC_SEQUENTIAL,	/* ssid, tsid from a window of consecutive SIDs */
	/* Strided SIDs (sidtab hands SIDs out in order, so the targets of one
	 * workload often lie at a fixed stride): full grids, struct avc_grid. */
	AVC_STRIDE2,	/* one ssid and class, tsid = base + 2k, k < n */
	AVC_STRIDE3,
	AVC_STRIDE4,
	AVC_STRIDE8,
	AVC_STRIDE16,
	AVC_STRIDE64,
	AVC_STRIDE2_4C,	/* one ssid, 4 classes, tsid = base + 2k, k < n/4 */
	AVC_STRIDE4_4C,
	AVC_SUBJ2,	/* ssid = sbase + 2i (i < 20), tsid = tbase + 2j (j < 25) */
	AVC_SUBJ4,	/* the same at stride 4 */
	AVC_SUBJ2_ONE,	/* ssid = base + 2i, i < n; one tsid and class */
	AVC_NSETS
};

/* The policy set (avc_policy_keys()), numbered after the synthetic ones. */
#define AVC_SET_POLICY AVC_NSETS
#define AVC_NSETS_ALL (AVC_NSETS + 1)

struct avc_key {
	uint32_t ssid;
	uint32_t tsid;
	uint16_t tclass;
};

/*
 * A strided set: every key of the box ssid = sbase + sstride * i (i <
 * nsubj), tsid = tbase + tstride * j (j < ntarg), tclass one of ncls
 * classes (at most 4, distinct), j varying fastest, then the class, then
 * i; the first n keys.  A count of 0 is "as many as n needs".  sbase,
 * tbase and the classes are random per sample; tbase = sbase when both
 * strides are set (one range of SIDs).
 */
struct avc_grid {
	uint32_t sstride, nsubj, tstride, ntarg, ncls;
};

/* names and descriptions of the sets 0..AVC_NSETS_ALL-1 */
const char *avc_set_name(int set);
const char *avc_set_text(int set);

/* @n distinct keys of @set, deterministic in (@set, @sample); SIDs are
 * 1..@nsids, classes 1..@nclasses (uniform in every set).  The strided
 * sets start at a random SID in 1..@nsids and may go beyond @nsids; their
 * classes are drawn once per sample. */
void avc_keys(enum avc_set set, uint32_t sample, uint32_t n, uint32_t nsids,
	      uint32_t nclasses, struct avc_key *out);

/* @n keys of the grid @g, deterministic in (@seed, @sample); bases in
 * 1..@nsids, classes in 1..@nclasses. */
void avc_grid_keys(const struct avc_grid *g, uint32_t seed, uint32_t sample,
		   uint32_t n, uint32_t nsids, uint32_t nclasses,
		   struct avc_key *out);

/*
 * The policy set: @n distinct keys made of @ntriples distinct (source type,
 * target type, class) triples @triples (the te_avtab access-vector rules),
 * picked at random, deterministic in @sample; each type becomes a SID in
 * the order of its first use, from a random base in 1..@nsids (sidtab
 * hands SIDs out in order of first use).  @ntypes bounds the type values.
 * An approximation: the kernel's AVC holds the concrete types of the
 * processes and objects, the policy's rules are often written for
 * attributes.
 */
void avc_policy_keys(const struct avc_key *triples, uint32_t ntriples,
		     uint32_t ntypes, uint32_t sample, uint32_t n,
		     uint32_t nsids, struct avc_key *out);

#endif /* AVC_KEYS_H */
