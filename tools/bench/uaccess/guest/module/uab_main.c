// SPDX-License-Identifier: GPL-2.0
/*
 * uaccess_bench: short user copies inside a running kernel.
 *
 * The module carries the OLD and the NEW tree's rep_movs_alternative()
 * (arch/x86/lib/copy_user_64.S assembled unchanged, renamed
 * uab_old_rep_movs_alternative / uab_new_rep_movs_alternative, see Kbuild),
 * so one boot compares both on the same CPU, next to the running kernel's
 * own copy_from_user()/copy_to_user() and an inline "rep movsb".
 *
 * /sys/kernel/debug/uaccess_bench/bench  (read)
 *	ticks per copy, every length 0..64 and 72..256 in steps of 8, both
 *	directions, plus a row with a random length 0..63 per copy: median of
 *	"samples" batches of "batch" copies, the empty batch subtracted.
 *	Only numbers under KVM (or on bare metal) say anything about speed;
 *	under TCG they only show that it runs.
 * /sys/kernel/debug/uaccess_bench/check  (read)
 *	fault semantics of the four: every length 0..128 with the user buffer
 *	0..length bytes before an unmapped page, both directions; the return
 *	value must be the bytes not copied, the bytes before the hole copied,
 *	nothing after them written.  Prints "check: all ok" or FAIL lines.
 *
 * The user buffers are mapped into the reading process with vm_mmap().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/asm.h>
#include <asm/hypervisor.h>
#include <asm/msr.h>
#include <asm/processor.h>
#include <asm/smap.h>

static unsigned int samples = 101;
module_param(samples, uint, 0644);
MODULE_PARM_DESC(samples, "batches per length and method (odd)");
static unsigned int batch = 16;
module_param(batch, uint, 0644);
MODULE_PARM_DESC(batch, "copies per batch (1..64)");

#define UAB_MAX_BATCH	64
#define UAB_NR_RANDOM	4096
#define UAB_OUT_SIZE	(64 << 10)

/* rep_movs_alternative()'s convention: rdi dst, rsi src, rcx len -> rcx left */
#define UAB_CALL(sym, to, from, len) ({					\
	unsigned long __l = (len);					\
	void *__t = (to);						\
	const void *__f = (from);					\
	stac();								\
	asm volatile("call " #sym					\
		     : "+c" (__l), "+D" (__t), "+S" (__f), ASM_CALL_CONSTRAINT \
		     : : "memory", "rax");				\
	clac();								\
	__l;								\
})

/* copy_user_generic() on FSRM CPUs */
#define UAB_MOVSB(to, from, len) ({					\
	unsigned long __l = (len);					\
	void *__t = (to);						\
	const void *__f = (from);					\
	stac();								\
	asm volatile("1: rep movsb\n"					\
		     "2:\n"						\
		     _ASM_EXTABLE_UA(1b, 2b)				\
		     : "+c" (__l), "+D" (__t), "+S" (__f)		\
		     : : "memory");					\
	clac();								\
	__l;								\
})

enum { M_NULL, M_KERNEL, M_OLD, M_NEW, M_MOVSB, NR_METHODS };
static const char * const method_name[NR_METHODS] = {
	"none", "kernel", "old", "new", "movsb",
};

/* one copy: dir 0 = from user (k <- u), 1 = to user (u <- k) */
static __always_inline unsigned long uab_copy(int m, int dir, void *k,
					      void __user *u, unsigned long len)
{
	void *uu = (__force void *)u;

	switch (m) {
	case M_KERNEL:
		return dir ? copy_to_user(u, k, len) : copy_from_user(k, u, len);
	case M_OLD:
		return dir ? UAB_CALL(uab_old_rep_movs_alternative, uu, k, len) :
			     UAB_CALL(uab_old_rep_movs_alternative, k, uu, len);
	case M_NEW:
		return dir ? UAB_CALL(uab_new_rep_movs_alternative, uu, k, len) :
			     UAB_CALL(uab_new_rep_movs_alternative, k, uu, len);
	case M_MOVSB:
		return dir ? UAB_MOVSB(uu, k, len) : UAB_MOVSB(k, uu, len);
	default:
		return 0;
	}
}

static unsigned long uab_sink;

#define UAB_BATCH(m, dir)						\
static noinline u64 uab_batch_##m##_##dir(void *k, void __user *u,	\
					  const u16 *lens, unsigned int n) \
{									\
	unsigned long acc = 0;						\
	unsigned int i;							\
	u64 t0;								\
									\
	t0 = rdtsc_ordered();						\
	for (i = 0; i < n; i++)						\
		acc |= uab_copy(m, dir, k, u, lens[i]);			\
	t0 = rdtsc_ordered() - t0;					\
	uab_sink |= acc;						\
	return t0;							\
}
UAB_BATCH(M_NULL, 0) UAB_BATCH(M_KERNEL, 0) UAB_BATCH(M_OLD, 0)
UAB_BATCH(M_NEW, 0) UAB_BATCH(M_MOVSB, 0)
UAB_BATCH(M_NULL, 1) UAB_BATCH(M_KERNEL, 1) UAB_BATCH(M_OLD, 1)
UAB_BATCH(M_NEW, 1) UAB_BATCH(M_MOVSB, 1)

typedef u64 (*uab_batch_fn)(void *k, void __user *u, const u16 *lens,
			    unsigned int n);
static const uab_batch_fn uab_batch[2][NR_METHODS] = {
	{ uab_batch_M_NULL_0, uab_batch_M_KERNEL_0, uab_batch_M_OLD_0,
	  uab_batch_M_NEW_0, uab_batch_M_MOVSB_0 },
	{ uab_batch_M_NULL_1, uab_batch_M_KERNEL_1, uab_batch_M_OLD_1,
	  uab_batch_M_NEW_1, uab_batch_M_MOVSB_1 },
};

struct uab_out {
	char *buf;
	size_t len;
};

static __printf(2, 3) void uab_printf(struct uab_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	o->len += vscnprintf(o->buf + o->len, UAB_OUT_SIZE - o->len, fmt, ap);
	va_end(ap);
}

static int uab_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void uab_header(struct uab_out *o)
{
	unsigned int eax, sig[3] = { 0, 0, 0 };
	char name[13] = "";

	if (boot_cpu_has(X86_FEATURE_HYPERVISOR)) {
		cpuid(0x40000000, &eax, &sig[0], &sig[1], &sig[2]);
		memcpy(name, sig, 12);
		name[12] = 0;
	}
	uab_printf(o, "# cpu: %s, erms=%d fsrm=%d\n", boot_cpu_data.x86_model_id,
		   boot_cpu_has(X86_FEATURE_ERMS), boot_cpu_has(X86_FEATURE_FSRM));
	uab_printf(o, "# accelerator: %s\n",
		   x86_hyper_type == X86_HYPER_KVM ? "KVM (timings are speed)" :
		   !boot_cpu_has(X86_FEATURE_HYPERVISOR) ?
		   "no hypervisor bit (bare metal, or QEMU TCG: timings are NOT speed)" :
		   name[0] ? name : "unknown hypervisor");
	uab_printf(o, "# kernel's copy_*_user: %s\n",
		   boot_cpu_has(X86_FEATURE_FSRM) ? "inline rep movsb (FSRM)" :
		   "call rep_movs_alternative");
}

/* Time every method at lens[] (batch-sized windows), interleaved. */
static void uab_time(void *k, void __user *u, int dir, const u16 *lens,
		     unsigned int nlens, u64 *t, unsigned int nsamples,
		     unsigned int nbatch, unsigned int *res_x100)
{
	unsigned int s, m, span = nlens - nbatch + 1;
	u64 null_med = 0;

	for (s = 0; s < nsamples; s++) {
		const u16 *l = lens + (s * nbatch) % span;

		for (m = 0; m < NR_METHODS; m++) {
			unsigned int mm = (m + s) % NR_METHODS;

			t[mm * nsamples + s] = uab_batch[dir][mm](k, u, l, nbatch);
		}
		cond_resched();
	}
	for (m = 0; m < NR_METHODS; m++) {
		u64 *v = t + m * nsamples, med;

		sort(v, nsamples, sizeof(*v), uab_cmp_u64, NULL);
		med = v[nsamples / 2];
		if (m == M_NULL)
			null_med = med;
		res_x100[m] = med > null_med ?
			div_u64((med - null_med) * 100, nbatch) : 0;
	}
}

static void uab_row(struct uab_out *o, const char *label, unsigned int r[2][NR_METHODS])
{
	int dir, m;

	uab_printf(o, "%6s", label);
	for (dir = 0; dir < 2; dir++)
		for (m = M_KERNEL; m < NR_METHODS; m++)
			uab_printf(o, " %s%4u.%02u", m == M_KERNEL ? "|" : "",
				   r[dir][m] / 100, r[dir][m] % 100);
	uab_printf(o, "\n");
}

static int uab_bench(struct uab_out *o)
{
	unsigned int nb = clamp(batch, 1U, (unsigned int)UAB_MAX_BATCH);
	unsigned int ns = clamp(samples, 3U, 100001U) | 1;
	unsigned int r[2][NR_METHODS], len, i, dir;
	unsigned long uaddr;
	u16 *lens, *rnd;
	void __user *u;
	u64 *t, x = 0x9e3779b97f4a7c15ULL;
	void *k;
	int ret = -ENOMEM;

	k = kmalloc(PAGE_SIZE, GFP_KERNEL);
	lens = kmalloc_array(UAB_MAX_BATCH, sizeof(*lens), GFP_KERNEL);
	rnd = kmalloc_array(UAB_NR_RANDOM, sizeof(*rnd), GFP_KERNEL);
	t = vmalloc(array_size(sizeof(*t), NR_METHODS * ns * 4));
	if (!k || !lens || !rnd || !t)
		goto out;
	uaddr = vm_mmap(NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(uaddr)) {
		ret = (int)uaddr;
		goto out;
	}
	u = (void __user *)uaddr;
	memset(k, 0x5a, PAGE_SIZE);
	ret = -EFAULT;
	if (copy_to_user(u, k, PAGE_SIZE))	/* populate the page */
		goto unmap;
	for (i = 0; i < UAB_NR_RANDOM; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		rnd[i] = ((x * 0x2545f4914f6cdd1dULL) >> 32) % 64;
	}

	uab_header(o);
	uab_printf(o, "# ticks (TSC) per copy: median of %u batches of %u copies, "
		   "empty batch subtracted\n", ns, nb);
	uab_printf(o, "%6s | %-38s | %s\n", "", "copy_from_user", "copy_to_user");
	uab_printf(o, "%6s", "len");
	for (dir = 0; dir < 2; dir++)
		for (i = M_KERNEL; i < NR_METHODS; i++)
			uab_printf(o, " %s%7s", i == M_KERNEL ? "|" : "",
				   method_name[i]);
	uab_printf(o, "\n");
	for (len = 0; len <= 256; len = len < 64 ? len + 1 : len + 8) {
		char label[8];

		for (i = 0; i < nb; i++)
			lens[i] = len;
		for (dir = 0; dir < 2; dir++)
			uab_time(k, u, dir, lens, nb, t, ns, nb, r[dir]);
		snprintf(label, sizeof(label), "%u", len);
		uab_row(o, label, r);
	}
	for (dir = 0; dir < 2; dir++)
		uab_time(k, u, dir, rnd, UAB_NR_RANDOM, t, ns * 4, nb, r[dir]);
	uab_row(o, "r0..63", r);
	uab_printf(o, "# kernel: this kernel's copy_*_user() (access_ok, might_fault, "
		   "...); old/new: the trees' rep_movs_alternative() with stac/clac; "
		   "movsb: inline rep movsb with stac/clac\n");
	ret = 0;
unmap:
	vm_munmap(uaddr, PAGE_SIZE);
out:
	vfree(t);
	kfree(rnd);
	kfree(lens);
	kfree(k);
	return ret;
}

static u8 uab_pattern(size_t i)
{
	return 1 + i % 251;
}

#define UAB_WIN 256

/* copy with method m across a hole; returns 0 or the number of failures */
static unsigned int uab_check_one(struct uab_out *o, int m, int dir, u8 *k,
				  u8 *chk, u8 __user *hole, size_t len, size_t ok,
				  size_t kmis)
{
	u8 __user *win = hole - UAB_WIN;
	size_t want = len - ok, i, start, fail = 0;
	unsigned long ret;

	if (dir == 0) {
		memset(chk, 0xff, UAB_WIN);
		ret = uab_copy(m, 0, chk + kmis, hole - ok, len);
		start = kmis;
	} else {
		if (clear_user(win, UAB_WIN))
			return 1;
		ret = uab_copy(m, 1, k + kmis, hole - ok, len);
		if (copy_from_user(chk, win, UAB_WIN))
			return 1;
		start = UAB_WIN - ok;
	}
	/* copy_from_user() zeroes the rest; the bare routines leave it */
	for (i = 0; i < UAB_WIN; i++) {
		u8 want_b = dir ? 0 : 0xff;

		if (i >= start && i < start + ok)
			want_b = dir ? uab_pattern(kmis + i - start) :
				       uab_pattern(UAB_WIN - ok + i - start);
		else if (!dir && m == M_KERNEL && i >= start + ok &&
			 i < start + len)
			want_b = 0;
		if (chk[i] != want_b) {
			fail = 1;
			break;
		}
	}
	if (ret != want || fail)
		uab_printf(o, "FAIL %s %s: len %zu, %zu bytes before the hole, "
			   "kernel +%zu: returned %lu, want %zu%s\n",
			   method_name[m], dir ? "to user" : "from user", len, ok,
			   kmis, ret, want, fail ? ", wrong bytes" : "");
	return ret != want || fail;
}

static int uab_check(struct uab_out *o)
{
	unsigned int fails = 0, cases;
	unsigned long uaddr;
	u8 __user *hole;
	size_t len, ok, i;
	u8 *k, *chk;
	int m, dir;

	k = kmalloc(2 * UAB_WIN, GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	chk = k + UAB_WIN;
	uaddr = vm_mmap(NULL, 0, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
			MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(uaddr)) {
		kfree(k);
		return (int)uaddr;
	}
	hole = (u8 __user *)uaddr + PAGE_SIZE;
	vm_munmap((unsigned long)hole, PAGE_SIZE);
	for (i = 0; i < UAB_WIN; i++)
		k[i] = uab_pattern(i);

	uab_header(o);
	for (m = M_KERNEL; m < NR_METHODS; m++) {
		unsigned int f = 0;

		cases = 0;
		for (dir = 0; dir < 2; dir++) {
			if (dir == 0 && copy_to_user(hole - UAB_WIN, k, UAB_WIN)) {
				f++;
				continue;
			}
			for (len = 0; len <= 128; len++) {
				for (ok = 0; ok <= len; ok++) {
					f += uab_check_one(o, m, dir, k, chk, hole,
							   len, ok, (len + ok) % 8);
					cases++;
					if (f > 10)
						goto next;
				}
				cond_resched();
			}
		}
next:
		uab_printf(o, "%-7s %s: %u cases (lengths 0..128, every offset "
			   "before the hole, both directions)\n",
			   method_name[m], f ? "FAIL" : "ok", cases);
		fails += f;
	}
	uab_printf(o, "check: %s\n", fails ? "FAILED" : "all ok");
	vm_munmap(uaddr, PAGE_SIZE);
	kfree(k);
	return 0;
}

static int uab_open(struct inode *inode, struct file *file)
{
	int (*fn)(struct uab_out *o) = inode->i_private;
	struct uab_out *o;
	int ret;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->buf = vzalloc(UAB_OUT_SIZE);
	if (!o->buf) {
		kfree(o);
		return -ENOMEM;
	}
	ret = fn(o);
	if (ret) {
		vfree(o->buf);
		kfree(o);
		return ret;
	}
	file->private_data = o;
	return 0;
}

static ssize_t uab_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	struct uab_out *o = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, o->buf, o->len);
}

static int uab_release(struct inode *inode, struct file *file)
{
	struct uab_out *o = file->private_data;

	vfree(o->buf);
	kfree(o);
	return 0;
}

static const struct file_operations uab_fops = {
	.owner = THIS_MODULE,
	.open = uab_open,
	.read = uab_read,
	.release = uab_release,
	.llseek = default_llseek,
};

static struct dentry *uab_dir;

static int __init uab_init(void)
{
	uab_dir = debugfs_create_dir("uaccess_bench", NULL);
	debugfs_create_file("bench", 0400, uab_dir, uab_bench, &uab_fops);
	debugfs_create_file("check", 0400, uab_dir, uab_check, &uab_fops);
	return 0;
}

static void __exit uab_exit(void)
{
	debugfs_remove_recursive(uab_dir);
}

module_init(uab_init);
module_exit(uab_exit);
MODULE_DESCRIPTION("Time and check short user copies: old vs new rep_movs_alternative()");
MODULE_LICENSE("GPL");
