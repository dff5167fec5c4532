# The harness, top to bottom: series -> trees -> kernels -> guests -> report.
#
#   make check   install, build old and new, boot both, run every test;
#                ends with "N passed, N failed, N skipped" (what .ci/run calls)
#   make run     the same builds and boots, plus the old-vs-new comparison
#   make export  regenerate patches/ and series from the new tree's commits
#   make rebase  move the series to the newest linux-source-6.12 (VERSION=...)
#   make compat  which linux-source-6.12 versions the series applies to
#
# The base is the package version in base-version; BASE_VERSION=<version>
# or BASE_VERSION=newest builds on another one for one run.
# KSRC=/path/to/linux uses another kernel tree as the base; ACCEL=kvm|tcg
# skips the KVM probe; JOBS=N sets make -j.  Everything generated goes to
# build/ (git-ignored).

SHELL := /bin/bash
T := tools

.PHONY: all check run deps base apply export kernels kernel-old kernel-new \
	selftests initramfs host-tests check-bisect check-debug check-scx clean distclean help \
	rebase compat

all: help

help:
	@sed -n '2,16p' Makefile | sed 's/^# \{0,1\}//'

# 1. Packages (apt-get, only what is missing).
deps:
	$(T)/deps

# 2. The base tree: one commit, the old kernel's source.
base: deps
	$(T)/base-tree

# 3. The new tree: base + series (git am).
apply: base
	$(T)/apply

# 4. Kernels, each in its own O= directory, one build at a time.
kernel-old: base
	$(T)/build-kernel old
kernel-new: apply
	$(T)/build-kernel new
kernels: kernel-old kernel-new

# 5. kselftests of the series, built from the new tree, run on both kernels.
selftests: apply
	$(T)/build-selftests

# 6. The guests' root filesystems, with the guest benchmarks of each kernel.
initramfs: selftests kernels
	$(T)/build-bench old
	$(T)/build-bench new
	$(T)/initramfs old
	$(T)/initramfs new

# 7. Everything above, the host-side tests, both guests, one summary line.
check: kernels initramfs
	$(T)/check

# 8. The comparison (builds and boots as for check, benchmarks in the guests).
run: kernels initramfs
	$(T)/run $(RUN_ARGS)

# The developer loop: commit in build/<flavor>/new/src, then export.
export:
	$(T)/export

# Moving the base on purpose: git am -3 onto another version, make check,
# re-export, record the version (then commit patches/ series base-version).
rebase: deps
	$(T)/rebase $(VERSION)

# The compatibility table (Documentation/compat.md) for every version served.
compat: deps
	$(T)/compat --out $(CURDIR)/Documentation/compat.md

host-tests:
	selftests/run

clean:
	rm -rf build/*/old/obj build/*/new/obj build/*/ksft build/*/logs

distclean:
	rm -rf build

# Hardening: every patch builds on its own and passes checkpatch --strict;
# the debug kernel (configs/debug.config) runs every test and the stress
# programs without a splat.
check-bisect: apply
	$(T)/check-bisect

check-debug: initramfs
	$(T)/check-debug

# The sched_ext lane: the new kernel with configs/scx.config (BTF), scx_simple
# and scx_qmap built against it (clang-16: tools/deps scx), core scheduling
# by cgroup tested under each (tools/bench/coresched/scx/cs_scx.sh).
check-scx: selftests
	$(T)/check-scx
