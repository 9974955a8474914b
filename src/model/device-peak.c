/* Device peaks from plane stats (device-peak.h). */
#include "config.h"

#include <string.h>

#include "model/device-peak.h"

/*
 * Dense FLOPs per SM (CU) per cycle of the fastest unit and type xprof
 * takes, by compute capability (major * 10 + minor) from newest down: the
 * most of CUDA-core fp32/fp16 and tensor-core tf32/fp16.  A capability
 * not listed takes the next older one, as xprof does.
 */
static const struct {
	int		 cc;
	double		 flops;
} nvidia[] = {
	{ 100, 8192 }, { 90, 4096 }, { 89, 1024 }, { 86, 1024 }, { 80, 2048 },
	{ 75, 1024 }, { 70, 1024 }, { 61, 256 }, { 60, 256 }, { 50, 256 },
	{ 30, 384 }, { 20, 64 },
};

/* AMD by compute capability: gfx942 (MI300) and gfx950 (MI350). */
static const struct {
	int		 cc;
	double		 flops;
} amd[] = {
	{ 94, 2048 }, { 95, 4096 },
};

static const struct pf_stat *
stat_named(const struct pf_stat *stats, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(stats[i].name, name) == 0)
			return &stats[i];
	return NULL;
}

static double
stat_num(const struct pf_stat *stats, size_t n, const char *name)
{
	const struct pf_stat *st = stat_named(stats, n, name);
	int64_t v;

	if (st == NULL)
		return 0;
	if (st->kind == PF_DOUBLE)
		return st->num.d;
	return pf_stat_int(st, &v) ? (double)v : 0;
}

static double
per_core_cycle(const char *vendor, int cc)
{
	size_t i;

	if (strcmp(vendor, "Nvidia") == 0) {
		for (i = 0; i < sizeof nvidia / sizeof nvidia[0]; i++)
			if (nvidia[i].cc <= cc)
				return nvidia[i].flops;
		return nvidia[sizeof nvidia / sizeof nvidia[0] - 1].flops;
	}
	if (strcmp(vendor, "AMD") == 0)
		for (i = 0; i < sizeof amd / sizeof amd[0]; i++)
			if (amd[i].cc == cc)
				return amd[i].flops;
	return 0;
}

int
device_peak_of(const struct pf_stat *stats, size_t n,
    struct device_peak *out)
{
	const struct pf_stat *vst = stat_named(stats, n, "device_vendor");
	double tflops = stat_num(stats, n, "peak_teraflops_per_second");
	struct pf_bytes vendor = { "", 0 };
	char v[16];

	memset(out, 0, sizeof *out);
	if (tflops > 0) {
		/* TPU: the profile says. */
		out->gflops = tflops * 1e3;
		out->gbps = stat_num(stats, n,
		    "peak_hbm_bw_gigabytes_per_second");
	} else {
		int cc = (int)(stat_num(stats, n, "compute_cap_major") * 10 +
		    stat_num(stats, n, "compute_cap_minor"));

		if (vst != NULL)
			pf_stat_str(vst, &vendor);
		if (vendor.len >= sizeof v)
			return -1;
		memcpy(v, vendor.ptr, vendor.len);
		v[vendor.len] = '\0';
		/* clock_rate is in kHz: cores x GHz x FLOP per cycle. */
		out->gflops = stat_num(stats, n, "core_count") *
		    stat_num(stats, n, "clock_rate") / 1e6 *
		    per_core_cycle(v, cc);
		out->gbps = stat_num(stats, n, "memory_bandwidth") / 1e9;
	}
	return out->gflops > 0 && out->gbps > 0 ? 0 : -1;
}
