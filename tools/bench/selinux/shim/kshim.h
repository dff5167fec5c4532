/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h - the few kernel types and helpers that the extracted kernel code
 * (see gen-tree.sh) needs to compile in user space.  Nothing here hashes:
 * the hash functions, rol32()/rol64() and hash_32()/hash_64() all come from
 * the kernel trees themselves.
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef uint64_t __u64;
typedef unsigned int gfp_t;

#define BITS_PER_LONG 64
#define U16_MAX ((u16)~0U)
#define U32_MAX ((u32)~0U)
#define GFP_KERNEL 0u
#define __ro_after_init
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define fallthrough __attribute__((__fallthrough__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define pr_debug(...) do { } while (0)
#define pr_info(...) do { } while (0)

/* include/linux/log2.h, for non-zero n (all the avtab code passes) */
#define ilog2(n) (63 - __builtin_clzll((u64)(n)))
#define rounddown_pow_of_two(n) (1UL << (31 - __builtin_clz((u32)(n))))

static inline void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	(void)flags;
	return calloc(n, size);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

/*
 * A slab cache as a bump allocator: objects of one size handed out back to
 * back, which is how SLUB lays out a cache's objects inside a slab page.
 * Frees are ignored; the model drops the whole arena at once.
 */
struct kmem_cache {
	size_t size;
	size_t used;
	size_t cap;
	char *base;
};

static inline void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t flags)
{
	void *p;

	(void)flags;
	if (c->used + c->size > c->cap)
		return NULL;
	p = c->base + c->used;
	c->used += c->size;
	memset(p, 0, c->size);
	return p;
}

static inline void kmem_cache_free(struct kmem_cache *c, void *p)
{
	(void)c;
	(void)p;
}

#endif /* KSHIM_H */
