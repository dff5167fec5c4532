/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - chain-length histograms as gnuplot data files and scripts
 * (tools/run runs every *.gp it finds in the plot directory).
 */
#ifndef PLOT_H
#define PLOT_H

#include <stdint.h>

#define HIST_MAX 40	/* the last bin counts chains of HIST_MAX or more */

struct hist {
	double n[HIST_MAX + 1];	/* buckets with a chain of this length */
	unsigned int adds;
};

/* add the chain lengths of @count[0..nslot-1] (averaged by plot_hists) */
void hist_add(struct hist *h, const uint32_t *count, uint32_t nslot);

/* @dir/@name.dat (chain length, then one column per histogram: the mean
 * over its adds) and @dir/@name.gp drawing it into @name.png */
void plot_hists(const char *dir, const char *name, const char *title,
		int nhist, const char *const *labels, const struct hist *h);

#endif /* PLOT_H */
