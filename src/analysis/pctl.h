/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftlens's one percentile: every command and view that prints a p50, p95
 * or p99 (report, markers --span, sched, plot durations, the TUI's panels
 * and histograms, the JSON results) reads it from a store of this file, so
 * the same values give the same answer everywhere.
 *
 * The definition: the nearest rank. The p-th percentile of n values is the
 * value at rank ceil(p/100 * n) (at least 1) of the values sorted.
 *
 *  - Up to FTL_PCTL_EXACT_MAX (256) values the store keeps them all, and
 *    the percentile is that value, exactly.
 *  - Past that the store keeps a log-linear histogram (the scheme named
 *    FTL_PCTL_SCHEME): a bucket for each value below 64 ns, above it each
 *    power of two cut into 32 buckets, so a bucket [lo, hi) is at most
 *    lo/32 wide. The percentile is the midpoint of the bucket that holds
 *    the rank, clamped to the exact minimum and maximum, and rank 1 and
 *    rank n are the exact minimum and maximum: exact below 64 ns, within
 *    1/64 (1.6%) of the true value above.
 *
 * Memory: nothing for one value (its owner's minimum), 8 bytes a value up
 * to 256, then 4 bytes for each bucket between the least and the largest
 * bucket reached (a function whose calls span a few powers of two: a few
 * hundred bytes). The bucket bounds never depend on the data, so the
 * buckets of several traces add up.
 *
 * A store is a pointer whose meaning follows the count of values its
 * owner keeps beside it (with their minimum and maximum), so a row of
 * per-function statistics pays one pointer for it. */
#pragma once

#include <glib.h>

#define FTL_PCTL_EXACT_MAX 256
/* The bucket layout above, for results that carry buckets. */
#define FTL_PCTL_SCHEME "log-linear/32"

/* The rank of the pct-th percentile (1..100) of count values: ceil(pct/100
 * * count), at least 1; 0 when count is 0. */
guint64 ftl_pctl_rank(guint64 count, guint pct);

typedef struct _FtlPctlHist FtlPctlHist;

/* The values behind the percentiles: by the owner's count, nothing for 0
 * or 1 (the value is the minimum), the gint64 values (2..EXACT_MAX), or
 * the histogram. */
typedef union {
	GArray *exact;
	FtlPctlHist *hist;
} FtlPctlStore;

/* A hint that v is about to be added to s (count being the values it
 * holds now): fetches the histogram's bucket for it, or with v FTL_TS_NONE
 * the store's first bytes. Changes nothing. */
void ftl_pctl_store_prefetch(const FtlPctlStore *s, guint64 count, gint64 v);
/* Adds v to s, count being the values with v, min and max their extremes
 * (v included). The exact values stay in input order until
 * ftl_pctl_store_sort(): an add costs no search. */
void ftl_pctl_store_add(FtlPctlStore *s, guint64 count, gint64 min, gint64 max, gint64 v);
/* The same, keeping the exact values sorted (up to 256 steps an add), for
 * owners read at any time. */
void ftl_pctl_store_add_sorted(FtlPctlStore *s, guint64 count, gint64 min, gint64 max, gint64 v);
/* Adds src's values (src_count of them, src_min the least) to dst's
 * (dst_count, dst_min), leaving src as it was; dst then holds dst_count +
 * src_count values, unsorted. */
void ftl_pctl_store_merge(FtlPctlStore *dst, guint64 dst_count, gint64 dst_min,
			  const FtlPctlStore *src, guint64 src_count, gint64 src_min);
/* Sorts the exact values: call after the last add, before reading. */
void ftl_pctl_store_sort(FtlPctlStore *s, guint64 count);
/* Frees what s holds for count values; s is then empty. */
void ftl_pctl_store_clear(FtlPctlStore *s, guint64 count);
/* Bytes s holds for count values. */
gsize ftl_pctl_store_size(const FtlPctlStore *s, guint64 count);

/* The pct-th percentile (1..100) of s's count values (sorted), as the
 * definition above says; FTL_TS_NONE when count is 0. */
gint64 ftl_pctl_store_value(const FtlPctlStore *s, guint64 count, gint64 min, gint64 max,
			    guint pct);
/* Walks the non-empty buckets of the scheme over s's values (sorted), in
 * increasing order: start with *pos = 0. A bucket holds the values
 * lo <= v < hi. */
gboolean ftl_pctl_store_next_bucket(const FtlPctlStore *s, guint64 count, gint64 min,
				    guint *pos, gint64 *lo, gint64 *hi, guint64 *n);
/* Walks s's values (sorted) as the percentiles read them, in increasing
 * order: each distinct value with how many times it occurs while they are
 * exact, then the value each bucket stands for (its midpoint within min
 * and max) with its count. Start with *pos = 0. */
gboolean ftl_pctl_store_next_value(const FtlPctlStore *s, guint64 count, gint64 min, gint64 max,
				   guint *pos, gint64 *v, guint64 *n);
