// SPDX-License-Identifier: GPL-2.0
/* plot.c - chain-length histograms as gnuplot data files and scripts. */
#include <stdio.h>
#include <stdlib.h>

#include "plot.h"

void hist_add(struct hist *h, const uint32_t *count, uint32_t nslot)
{
	for (uint32_t i = 0; i < nslot; i++)
		h->n[count[i] < HIST_MAX ? count[i] : HIST_MAX]++;
	h->adds++;
}

static FILE *open_out(const char *dir, const char *name, const char *ext)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, name, ext);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

void plot_hists(const char *dir, const char *name, const char *title,
		int nhist, const char *const *labels, const struct hist *h)
{
	FILE *d = open_out(dir, name, "dat"), *g = open_out(dir, name, "gp");
	int top = 0;

	for (int k = 0; k < nhist; k++)
		for (int len = 0; len <= HIST_MAX; len++)
			if (h[k].n[len] > 0 && len > top)
				top = len;
	fprintf(d, "# %s\n# chain length, then buckets with a chain of that length:",
		title);
	for (int k = 0; k < nhist; k++)
		fprintf(d, " %s", labels[k]);
	fprintf(d, "\n");
	for (int len = 0; len <= top; len++) {
		fprintf(d, "%d", len);
		for (int k = 0; k < nhist; k++)
			fprintf(d, " %.3f", h[k].adds ? h[k].n[len] / h[k].adds : 0);
		fprintf(d, "\n");
	}
	fprintf(g, "# gnuplot %s.gp: %s.png from %s.dat\n"
		"set terminal pngcairo size 900,500 noenhanced\n"
		"set output '%s.png'\n"
		"set title '%s'\n"
		"set xlabel 'chain length'\n"
		"set ylabel 'buckets (log scale)'\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.8 border -1\n"
		"set logscale y\n"
		"set yrange [0.05:*]\n"
		"set key top right\n"
		"set grid ytics\n"
		"plot", name, name, name, name, title);
	for (int k = 0; k < nhist; k++)
		fprintf(g, "%s '%s.dat' using %d:xtic(1) title '%s'",
			k ? ", \\\n    " : " ", name, k + 2, labels[k]);
	fprintf(g, "\n");
	fclose(d);
	fclose(g);
}
