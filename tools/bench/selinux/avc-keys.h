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
	AVC_NSETS
};

struct avc_key {
	uint32_t ssid;
	uint32_t tsid;
	uint16_t tclass;
};

const char *avc_set_name(enum avc_set set);
const char *avc_set_text(enum avc_set set);

/* @n distinct keys of @set, deterministic in (@set, @sample); SIDs are
 * 1..@nsids, classes 1..@nclasses (uniform in every set). */
void avc_keys(enum avc_set set, uint32_t sample, uint32_t n, uint32_t nsids,
	      uint32_t nclasses, struct avc_key *out);

#endif /* AVC_KEYS_H */
