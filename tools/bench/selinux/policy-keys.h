/* SPDX-License-Identifier: GPL-2.0 */
/* policy-keys.h - the avtab records of a binary policy, in file order. */
#ifndef POLICY_KEYS_H
#define POLICY_KEYS_H

#include "model.h"

struct policy_keys {
	struct model_rec *avtab;	/* te_avtab, in the order of the file */
	uint32_t navtab;
	struct model_rec *cond;		/* te_cond_avtab, in the order of the file */
	uint32_t ncond;
	uint32_t ntypes;
	uint32_t nclasses;
	uint32_t policyvers;
	long avtab_offset;		/* file offset of te_avtab's element count */
};

/* Read @path with libsepol and locate its avtab records in the file; exits
 * with a message on any failure. */
void policy_keys_load(const char *path, struct policy_keys *pk);

#endif /* POLICY_KEYS_H */
