// SPDX-License-Identifier: GPL-2.0
/*
 * policy-keys.c - read a binary SELinux policy with libsepol and recover the
 * order in which its avtab records are stored in the file.
 *
 * libsepol gives the records (te_avtab, te_cond_avtab) but keeps them in its
 * own hash table.  The kernel allocates one avtab node per record in file
 * order, so the model also needs that order: it finds te_avtab's element
 * count in the file, parses the records that follow (and the conditional
 * list right after them), and accepts the parse only if it yields exactly
 * libsepol's records (as multisets).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sepol/policydb.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/avtab.h>

#include "policy-keys.h"

struct keyvec {
	uint64_t *v;
	uint32_t n, cap;
};

static void die(const char *what, const char *path)
{
	fprintf(stderr, "policy-keys: %s: %s\n", path, what);
	exit(1);
}

static uint64_t pack(uint16_t s, uint16_t t, uint16_t c, uint16_t spec)
{
	spec &= (uint16_t)~MODEL_AVTAB_ENABLED;
	return (uint64_t)s << 48 | (uint64_t)t << 32 | (uint64_t)c << 16 | spec;
}

static void push(struct keyvec *kv, uint64_t k)
{
	if (kv->n == kv->cap) {
		kv->cap = kv->cap ? 2 * kv->cap : 4096;
		kv->v = realloc(kv->v, kv->cap * sizeof(*kv->v));
		if (!kv->v)
			die("out of memory", "keyvec");
	}
	kv->v[kv->n++] = k;
}

/* Every node of a libsepol avtab (avtab_map() is not exported by the
 * shared library, so walk its hash table). */
static void collect(const avtab_t *a, struct keyvec *kv)
{
	for (uint32_t i = 0; i < a->nslot; i++)
		for (avtab_ptr_t cur = a->htable[i]; cur; cur = cur->next)
			push(kv, pack(cur->key.source_type,
				      cur->key.target_type,
				      cur->key.target_class,
				      cur->key.specified));
	if (kv->n != a->nel)
		die("libsepol avtab: element count does not match its chains",
		    "collect");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct cursor {
	const unsigned char *p;
	size_t len, off;
};

static int get(struct cursor *c, void *dst, size_t n)
{
	if (c->off + n > c->len)
		return -1;
	memcpy(dst, c->p + c->off, n);
	c->off += n;
	return 0;
}

static int get32(struct cursor *c, uint32_t *v)
{
	unsigned char b[4];

	if (get(c, b, 4))
		return -1;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	     (uint32_t)b[3] << 24;
	return 0;
}

/* One record as avtab_read_item() reads it (policy version >= 20). */
static int get_rec(struct cursor *c, uint32_t vers, struct model_rec *r)
{
	unsigned char b[8];
	uint16_t spec;

	if (get(c, b, 8))
		return -1;
	r->key.source_type = (uint16_t)(b[0] | b[1] << 8);
	r->key.target_type = (uint16_t)(b[2] | b[3] << 8);
	r->key.target_class = (uint16_t)(b[4] | b[5] << 8);
	spec = (uint16_t)(b[6] | b[7] << 8);
	if (!(spec & 0x0777) || !r->key.source_type || !r->key.target_type ||
	    !r->key.target_class)
		return -1;
	r->key.specified = spec & (uint16_t)~MODEL_AVTAB_ENABLED;
	r->xperms = (spec & MODEL_AVTAB_XPERMS) != 0;
	r->data = 0;
	if (r->xperms) {
		unsigned char xp[2 + 32];

		if (vers < 30)
			return -1;
		return get(c, xp, sizeof(xp));
	}
	return get32(c, &r->data);
}

static int get_recs(struct cursor *c, uint32_t vers, uint32_t n,
		    struct model_rec *out)
{
	for (uint32_t i = 0; i < n; i++)
		if (get_rec(c, vers, &out[i]))
			return -1;
	return 0;
}

/* Do @recs hold exactly the (sorted) keys @want? */
static int same_keys(const struct model_rec *recs, uint32_t n,
		     const struct keyvec *want)
{
	uint64_t *v;
	int same;

	if (n != want->n)
		return 0;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		die("out of memory", "same_keys");
	for (uint32_t i = 0; i < n; i++)
		v[i] = pack(recs[i].key.source_type, recs[i].key.target_type,
			    recs[i].key.target_class, recs[i].key.specified);
	qsort(v, n, sizeof(*v), cmp_u64);
	same = !memcmp(v, want->v, n * sizeof(*v));
	free(v);
	return same;
}

/* cond_read_list(): nodes of (state, expression, true list, false list). */
static int parse_cond(struct cursor *c, uint32_t vers, struct model_rec *out,
		      uint32_t max, uint32_t *nout)
{
	uint32_t nnodes, n = 0;

	if (get32(c, &nnodes))
		return -1;
	for (uint32_t i = 0; i < nnodes; i++) {
		uint32_t state, nexpr, w[2];

		if (get32(c, &state) || get32(c, &nexpr) || nexpr > 1000)
			return -1;
		for (uint32_t e = 0; e < nexpr; e++)
			if (get32(c, &w[0]) || get32(c, &w[1]))
				return -1;
		for (int list = 0; list < 2; list++) {
			uint32_t len;

			if (get32(c, &len) || len > max - n)
				return -1;
			if (get_recs(c, vers, len, out + n))
				return -1;
			n += len;
		}
	}
	*nout = n;
	return 0;
}

void policy_keys_load(const char *path, struct policy_keys *pk)
{
	sepol_policy_file_t *pf;
	sepol_policydb_t *pdb;
	struct policydb *p;
	struct keyvec uk = { 0 }, ck = { 0 };
	unsigned char *buf;
	size_t len;
	long sz;
	FILE *f;
	int found = 0;

	f = fopen(path, "rb");
	if (!f)
		die("cannot open", path);
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET))
		die("cannot size", path);
	len = (size_t)sz;
	buf = malloc(len);
	if (!buf || fread(buf, 1, len, f) != len)
		die("cannot read", path);
	fclose(f);

	if (sepol_policy_file_create(&pf) || sepol_policydb_create(&pdb))
		die("libsepol: out of memory", path);
	sepol_policy_file_set_mem(pf, (char *)buf, len);
	if (sepol_policydb_read(pdb, pf))
		die("libsepol cannot read this policy", path);
	p = &pdb->p;
	collect(&p->te_avtab, &uk);
	collect(&p->te_cond_avtab, &ck);
	qsort(uk.v, uk.n, sizeof(*uk.v), cmp_u64);
	qsort(ck.v, ck.n, sizeof(*ck.v), cmp_u64);
	pk->ntypes = p->p_types.nprim;
	pk->nclasses = p->p_classes.nprim;
	pk->policyvers = p->policyvers;
	pk->navtab = uk.n;
	pk->ncond = ck.n;
	pk->avtab = calloc(uk.n + 1, sizeof(*pk->avtab));
	pk->cond = calloc(ck.n + 1, sizeof(*pk->cond));
	if (!pk->avtab || !pk->cond)
		die("out of memory", path);
	if (pk->policyvers < 20)
		die("policy version < 20 (no AVTAB format)", path);

	for (size_t off = 0; off + 4 <= len && !found; off++) {
		struct cursor c = { buf, len, off };
		uint32_t nel, ncond;

		if (get32(&c, &nel) || nel != uk.n)
			continue;
		if (get_recs(&c, pk->policyvers, nel, pk->avtab) ||
		    !same_keys(pk->avtab, nel, &uk))
			continue;
		if (parse_cond(&c, pk->policyvers, pk->cond, ck.n, &ncond) ||
		    !same_keys(pk->cond, ncond, &ck))
			die("te_avtab found in the file, but the conditional list after it does not match libsepol's te_cond_avtab",
			    path);
		pk->avtab_offset = (long)off;
		found = 1;
	}
	if (!found)
		die("no run of avtab records in the file matches libsepol's te_avtab",
		    path);

	sepol_policydb_free(pdb);
	sepol_policy_file_free(pf);
	free(uk.v);
	free(ck.v);
	free(buf);
}
