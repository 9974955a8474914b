/* Device peaks: published specifications, else plane stats (device-peak.h). */
#include "config.h"

#include <string.h>

#include "model/device-peak.h"

/*
 * The published peaks of the devices jaxprof knows: dense rates (without
 * 2:4 sparsity), the fastest unit of each precision (tensor or matrix
 * cores where they take it), per chip.  A row is found by a name the
 * device reports (gpu_device_name, device_type_string) containing one of
 * its names, the more specific rows first; else by vendor, compute
 * capability, core count, memory size and clock.  Each row cites its
 * source.  0: the device has no rate of its own for that precision.
 */
#define GIB	(1024.0 * 1024 * 1024)

static const struct spec {
	const char	*model;
	const char	*names[3];	/* substrings of the reported name */
	const char	*vendor;	/* device_vendor; NULL: a TPU */
	int		 cc, cores;
	double		 mem_min_gib, mem_max_gib;
	double		 clock_min_mhz;
	/* GFLOP/s: fp8, bf16/fp16, tf32, fp32, fp64, int8 */
	double		 gflops[PREC_N];
	double		 gbps;
} specs[] = {
	/* NVIDIA H200 datasheet (H200 SXM: Hopper H100 SXM's compute). */
	{ "H200 SXM", { "H200" }, "Nvidia", 90, 132, 100, 200, 0,
	    { 1978900, 989400, 494700, 67000, 67000, 1978900 }, 4800 },
	/* NVIDIA H100 datasheet, H100 PCIe column. */
	{ "H100 PCIe", { "H100 PCIe" }, "Nvidia", 90, 114, 0, 100, 0,
	    { 1513000, 756000, 378000, 51000, 51000, 1513000 }, 2000 },
	/* NVIDIA H100 datasheet, H100 NVL column (sparse figures halved). */
	{ "H100 NVL", { "H100 NVL" }, "Nvidia", 90, 132, 88, 100, 0,
	    { 1670500, 835500, 417500, 60000, 60000, 1670500 }, 3900 },
	/* NVIDIA H100 datasheet, H100 SXM column. */
	{ "H100 SXM", { "H100" }, "Nvidia", 90, 132, 0, 88, 0,
	    { 1978900, 989400, 494700, 67000, 67000, 1978900 }, 3350 },
	/* NVIDIA HGX B200 datasheet, per GPU (an eighth of HGX B200). */
	{ "B200", { "B200" }, "Nvidia", 100, 148, 0, 400, 0,
	    { 4500000, 2250000, 1125000, 75000, 37000, 4500000 }, 8000 },
	/* NVIDIA A100 datasheet, A100 80GB PCIe column. */
	{ "A100 PCIe 80GB", { "A100 80GB PCIe" }, "Nvidia", 0, 0, 0, 0, 0,
	    { 0, 312000, 156000, 19500, 19500, 624000 }, 1935 },
	/* NVIDIA A100 datasheet, A100 40GB columns (PCIe and SXM). */
	{ "A100 40GB", { "A100-PCIE-40GB", "A100-SXM4-40GB" }, "Nvidia", 80,
	    108, 0, 60, 0,
	    { 0, 312000, 156000, 19500, 19500, 624000 }, 1555 },
	/* NVIDIA A100 datasheet, A100 80GB SXM column. */
	{ "A100 SXM 80GB", { "A100" }, "Nvidia", 80, 108, 60, 100, 0,
	    { 0, 312000, 156000, 19500, 19500, 624000 }, 2039 },
	/* NVIDIA V100 datasheet, PCIe column (fp16 tensor cores, no bf16). */
	{ "V100 PCIe", { "V100-PCIE" }, "Nvidia", 0, 0, 0, 0, 0,
	    { 0, 112000, 0, 14000, 7000, 0 }, 900 },
	/* NVIDIA V100 datasheet, SXM2 column. */
	{ "V100 SXM2", { "V100" }, "Nvidia", 70, 80, 0, 64, 0,
	    { 0, 125000, 0, 15700, 7800, 0 }, 900 },
	/* AMD Instinct MI300X data sheet (matrix rates, dense). */
	{ "MI300X", { "MI300X" }, "AMD", 94, 304, 0, 224, 0,
	    { 2614900, 1307400, 653700, 163400, 163400, 2614900 }, 5300 },
	/* AMD Instinct MI325X data sheet (MI300X's compute, HBM3E). */
	{ "MI325X", { "MI325X" }, "AMD", 94, 304, 224, 400, 0,
	    { 2614900, 1307400, 653700, 163400, 163400, 2614900 }, 6000 },
	/* AMD Instinct MI355X data sheet (CDNA 4 has no TF32 rate). */
	{ "MI355X", { "MI355X" }, "AMD", 95, 256, 0, 400, 2300,
	    { 5033200, 2516600, 0, 157300, 78600, 5033200 }, 8000 },
	/* AMD Instinct MI350X data sheet. */
	{ "MI350X", { "MI350X" }, "AMD", 95, 256, 0, 400, 0,
	    { 4613700, 2306900, 0, 144200, 72100, 4613700 }, 8000 },
	/* Google Cloud TPU docs, "TPU v6e": per chip. */
	{ "TPU v6e", { "TPU v6 Lite", "TPU v6e" }, NULL, 0, 0, 0, 0, 0,
	    { 0, 918000, 0, 0, 0, 1836000 }, 1640 },
	/* Google Cloud TPU docs, "TPU v5e": per chip. */
	{ "TPU v5e", { "TPU v5 Lite", "TPU v5e" }, NULL, 0, 0, 0, 0, 0,
	    { 0, 197000, 0, 0, 0, 394000 }, 819 },
	/* Google Cloud TPU docs, "TPU v5p": per chip. */
	{ "TPU v5p", { "TPU v5p", "TPU v5" }, NULL, 0, 0, 0, 0, 0,
	    { 0, 459000, 0, 0, 0, 918000 }, 2765 },
	/* Google Cloud TPU docs, "TPU v4": per chip. */
	{ "TPU v4", { "TPU v4" }, NULL, 0, 0, 0, 0, 0,
	    { 0, 275000, 0, 0, 0, 275000 }, 1200 },
};

#define NSPECS	(sizeof specs / sizeof specs[0])

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

/* A string stat into buf (cut to fit); "" when absent. */
static void
stat_text(const struct pf_stat *stats, size_t n, const char *name,
    char *buf, size_t size)
{
	const struct pf_stat *st = stat_named(stats, n, name);
	struct pf_bytes b = { "", 0 };

	if (st != NULL)
		pf_stat_str(st, &b);
	if (b.len >= size)
		b.len = size - 1;
	memcpy(buf, b.ptr, b.len);
	buf[b.len] = '\0';
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

static void
fill_spec(const struct spec *s, struct device_peak *out)
{
	int p;

	memset(out, 0, sizeof *out);
	for (p = 0; p < PREC_N; p++) {
		out->gflops[p] = s->gflops[p];
		if (s->gflops[p] > out->top_gflops)
			out->top_gflops = s->gflops[p];
	}
	out->gbps = s->gbps;
	out->model = s->model;
	out->source = PEAK_SPEC;
}

/* The row whose names the reported name contains, else NULL. */
static const struct spec *
spec_by_name(const char *name)
{
	size_t i, k;

	if (name[0] == '\0')
		return NULL;
	for (i = 0; i < NSPECS; i++)
		for (k = 0; k < 3 && specs[i].names[k] != NULL; k++)
			if (strstr(name, specs[i].names[k]) != NULL)
				return &specs[i];
	return NULL;
}

/* A GPU without a name: by what its plane says of its hardware. */
static const struct spec *
spec_by_hardware(const char *vendor, int cc, double cores, double mem,
    double clock_khz)
{
	size_t i;

	for (i = 0; i < NSPECS; i++) {
		const struct spec *s = &specs[i];

		if (s->vendor != NULL && s->cc != 0 &&
		    strcmp(s->vendor, vendor) == 0 && s->cc == cc &&
		    s->cores == (int)cores && mem >= s->mem_min_gib * GIB &&
		    mem < s->mem_max_gib * GIB &&
		    clock_khz >= s->clock_min_mhz * 1e3)
			return s;
	}
	return NULL;
}

int
device_peak_of(const struct pf_stat *stats, size_t n,
    struct device_peak *out)
{
	double tflops = stat_num(stats, n, "peak_teraflops_per_second");
	double profile_gflops, profile_gbps;
	const struct spec *s;
	char name[128], v[16];
	int cc;

	memset(out, 0, sizeof *out);
	stat_text(stats, n, "gpu_device_name", name, sizeof name);
	if (name[0] == '\0')
		stat_text(stats, n, "device_type_string", name, sizeof name);
	stat_text(stats, n, "device_vendor", v, sizeof v);
	cc = (int)(stat_num(stats, n, "compute_cap_major") * 10 +
	    stat_num(stats, n, "compute_cap_minor"));
	if (tflops > 0) {
		/* TPU: the profile says. */
		profile_gflops = tflops * 1e3;
		profile_gbps = stat_num(stats, n,
		    "peak_hbm_bw_gigabytes_per_second");
	} else {
		/* clock_rate is in kHz: cores x GHz x FLOP per cycle. */
		profile_gflops = stat_num(stats, n, "core_count") *
		    stat_num(stats, n, "clock_rate") / 1e6 *
		    per_core_cycle(v, cc);
		profile_gbps = stat_num(stats, n, "memory_bandwidth") / 1e9;
	}
	if ((s = spec_by_name(name)) == NULL)
		s = spec_by_hardware(v, cc, stat_num(stats, n, "core_count"),
		    stat_num(stats, n, "memory_size"),
		    stat_num(stats, n, "clock_rate"));
	if (s != NULL)
		fill_spec(s, out);
	else {
		out->source = PEAK_PROFILE;
		out->top_gflops = profile_gflops;
		out->gbps = profile_gbps;
	}
	out->profile_gflops = profile_gflops;
	out->profile_gbps = profile_gbps;
	return out->top_gflops > 0 && out->gbps > 0 ? 0 : -1;
}
