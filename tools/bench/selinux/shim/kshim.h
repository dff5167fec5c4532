/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h - the few kernel types and helpers that the extracted kernel code
 * (see gen-tree.sh) needs to compile in user space: the avtab code, and
 * the AVC's structs and avc_search_node() (avc-impl.c).  Nothing here hashes:
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

/*
 * CONFIG_SECURITY_SELINUX_AVC_HASH_BITS (mainline's Kconfig, range 9..14):
 * the model compiles the AVC code once per size with -D...=N (avc-impl.c);
 * everything else gets the Kconfig default.
 */
#ifndef CONFIG_SECURITY_SELINUX_AVC_HASH_BITS
#define CONFIG_SECURITY_SELINUX_AVC_HASH_BITS 9
#endif

/* The AVC's list and lock types (include/linux/types.h, list.h, rculist.h,
 * spinlock_types.h), at their x86-64 sizes without lock debugging: a node's
 * layout is what the lookup's cache behaviour depends on. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	u32 val;	/* qspinlock: 4 bytes */
} spinlock_t;

#define hlist_entry_safe(ptr, type, member) \
	({ __typeof__(ptr) ____ptr = (ptr); \
	   ____ptr ? container_of(____ptr, type, member) : NULL; })

/* a reader under rcu_read_lock(): READ_ONCE of each link (rcu_dereference_raw) */
#define hlist_for_each_entry_rcu(pos, head, member, ...) \
	for (pos = hlist_entry_safe(READ_ONCE((head)->first), __typeof__(*(pos)), member); \
	     pos; \
	     pos = hlist_entry_safe(READ_ONCE((pos)->member.next), __typeof__(*(pos)), member))

#define hlist_for_each_entry(pos, head, member) \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); \
	     pos; \
	     pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))

static inline void INIT_HLIST_HEAD(struct hlist_head *h)
{
	h->first = NULL;
}

/* include/linux/rculist.h: the writer publishes @n at the head of @h */
static inline void hlist_add_head_rcu(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	__atomic_store_n(&h->first, n, __ATOMIC_RELEASE);
	if (first)
		first->pprev = &n->next;
}

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
