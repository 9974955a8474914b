/*
 * Device peaks: each device of the table found from the stats its plane
 * carries (its name, else its hardware), with the datasheet's figures
 * written out here again; devices not in the table from their own stats.
 */
#include "config.h"

#include <string.h>

#include "check_suites.h"
#include "model/device-peak.h"

#define GIB	(1024.0 * 1024 * 1024)

/* A plane's stats: a name stat (or none) and the GPU hardware ones. */
struct plane_stats {
	struct pf_stat	 st[8];
	size_t		 n;
};

static void
add_str(struct plane_stats *p, const char *name, const char *v)
{
	struct pf_stat *s = &p->st[p->n++];

	memset(s, 0, sizeof *s);
	s->name = name;
	s->kind = PF_STR;
	s->str.ptr = v;
	s->str.len = strlen(v);
}

static void
add_num(struct plane_stats *p, const char *name, double v)
{
	struct pf_stat *s = &p->st[p->n++];

	memset(s, 0, sizeof *s);
	s->name = name;
	if (v == (double)(int64_t)v) {
		s->kind = PF_INT64;
		s->num.i = (int64_t)v;
	} else {
		s->kind = PF_DOUBLE;
		s->num.d = v;
	}
}

/* A GPU plane as XLA writes it; name NULL: no gpu_device_name stat. */
static void
gpu(struct plane_stats *p, const char *vendor, const char *name, int major,
    int minor, int cores, double mem_gib, double clock_mhz)
{
	memset(p, 0, sizeof *p);
	add_str(p, "device_vendor", vendor);
	if (name != NULL)
		add_str(p, "gpu_device_name", name);
	add_num(p, "compute_cap_major", major);
	add_num(p, "compute_cap_minor", minor);
	add_num(p, "core_count", cores);
	add_num(p, "memory_size", mem_gib * GIB);
	add_num(p, "clock_rate", clock_mhz * 1e3);
	add_num(p, "memory_bandwidth", 1e12);	/* what ROCm/CUDA report */
}

static void
tpu(struct plane_stats *p, const char *type)
{
	memset(p, 0, sizeof *p);
	add_str(p, "device_type_string", type);
	add_num(p, "peak_teraflops_per_second", 100.5);
	add_num(p, "peak_hbm_bw_gigabytes_per_second", 500.5);
}

/* The model found and its fp8, bf16, tf32, fp32, fp64 TFLOP/s, TB/s. */
static void
expect(const struct plane_stats *p, const char *model, double fp8,
    double bf16, double tf32, double fp32, double fp64, double tbps)
{
	struct device_peak pk;

	ck_assert_int_eq(device_peak_of(p->st, p->n, &pk), 0);
	ck_assert_ptr_nonnull(pk.model);
	ck_assert_str_eq(pk.model, model);
	ck_assert_int_eq(pk.source, PEAK_SPEC);
	ck_assert_double_eq_tol(pk.gflops[PREC_FP8], fp8 * 1e3, 0.5);
	ck_assert_double_eq_tol(pk.gflops[PREC_BF16], bf16 * 1e3, 0.5);
	ck_assert_double_eq_tol(pk.gflops[PREC_TF32], tf32 * 1e3, 0.5);
	ck_assert_double_eq_tol(pk.gflops[PREC_FP32], fp32 * 1e3, 0.5);
	ck_assert_double_eq_tol(pk.gflops[PREC_FP64], fp64 * 1e3, 0.5);
	ck_assert_double_eq_tol(pk.gbps, tbps * 1e3, 0.5);
	ck_assert_double_ge(pk.top_gflops, bf16 * 1e3);
}

START_TEST(test_h100_sxm)
{
	struct plane_stats p;

	gpu(&p, "Nvidia", "NVIDIA H100 80GB HBM3", 9, 0, 132, 79.1, 1980);
	expect(&p, "H100 SXM", 1978.9, 989.4, 494.7, 67, 67, 3.35);
	gpu(&p, "Nvidia", NULL, 9, 0, 132, 79.1, 1980);
	expect(&p, "H100 SXM", 1978.9, 989.4, 494.7, 67, 67, 3.35);
}
END_TEST

START_TEST(test_h100_pcie)
{
	struct plane_stats p;

	gpu(&p, "Nvidia", "NVIDIA H100 PCIe", 9, 0, 114, 79.6, 1755);
	expect(&p, "H100 PCIe", 1513, 756, 378, 51, 51, 2.0);
	gpu(&p, "Nvidia", NULL, 9, 0, 114, 79.6, 1755);
	expect(&p, "H100 PCIe", 1513, 756, 378, 51, 51, 2.0);
}
END_TEST

START_TEST(test_h100_nvl)
{
	struct plane_stats p;

	gpu(&p, "Nvidia", "NVIDIA H100 NVL", 9, 0, 132, 93.1, 1785);
	expect(&p, "H100 NVL", 1670.5, 835.5, 417.5, 60, 60, 3.9);
}
END_TEST

START_TEST(test_h200)
{
	struct plane_stats p;

	/* The corpus's H200 reports 4.81 TB/s and 1,070 TFLOP/s. */
	gpu(&p, "Nvidia", "NVIDIA H200", 9, 0, 132, 139.8, 1980);
	expect(&p, "H200 SXM", 1978.9, 989.4, 494.7, 67, 67, 4.8);
	gpu(&p, "Nvidia", NULL, 9, 0, 132, 139.8, 1980);
	expect(&p, "H200 SXM", 1978.9, 989.4, 494.7, 67, 67, 4.8);
}
END_TEST

START_TEST(test_b200)
{
	struct plane_stats p;

	gpu(&p, "Nvidia", "NVIDIA B200", 10, 0, 148, 179, 1965);
	expect(&p, "B200", 4500, 2250, 1125, 75, 37, 8.0);
	gpu(&p, "Nvidia", NULL, 10, 0, 148, 179, 1965);
	expect(&p, "B200", 4500, 2250, 1125, 75, 37, 8.0);
}
END_TEST

START_TEST(test_a100)
{
	struct plane_stats p;

	gpu(&p, "Nvidia", "NVIDIA A100-SXM4-80GB", 8, 0, 108, 79.2, 1410);
	expect(&p, "A100 SXM 80GB", 0, 312, 156, 19.5, 19.5, 2.039);
	gpu(&p, "Nvidia", NULL, 8, 0, 108, 79.2, 1410);
	expect(&p, "A100 SXM 80GB", 0, 312, 156, 19.5, 19.5, 2.039);
	gpu(&p, "Nvidia", "NVIDIA A100-SXM4-40GB", 8, 0, 108, 39.4, 1410);
	expect(&p, "A100 40GB", 0, 312, 156, 19.5, 19.5, 1.555);
	gpu(&p, "Nvidia", NULL, 8, 0, 108, 39.4, 1410);
	expect(&p, "A100 40GB", 0, 312, 156, 19.5, 19.5, 1.555);
	gpu(&p, "Nvidia", "NVIDIA A100 80GB PCIe", 8, 0, 108, 79.2, 1410);
	expect(&p, "A100 PCIe 80GB", 0, 312, 156, 19.5, 19.5, 1.935);
}
END_TEST

START_TEST(test_v100)
{
	struct plane_stats p;

	gpu(&p, "Nvidia", "Tesla V100-SXM2-16GB", 7, 0, 80, 15.8, 1530);
	expect(&p, "V100 SXM2", 0, 125, 0, 15.7, 7.8, 0.9);
	gpu(&p, "Nvidia", NULL, 7, 0, 80, 15.8, 1530);
	expect(&p, "V100 SXM2", 0, 125, 0, 15.7, 7.8, 0.9);
	gpu(&p, "Nvidia", "Tesla V100-PCIE-32GB", 7, 0, 80, 31.7, 1380);
	expect(&p, "V100 PCIe", 0, 112, 0, 14, 7, 0.9);
}
END_TEST

START_TEST(test_mi300x)
{
	struct plane_stats p;

	/* As the corpus's MI300X: no name, 2.66 TB/s reported. */
	gpu(&p, "AMD", NULL, 9, 4, 304, 192, 2100);
	expect(&p, "MI300X", 2614.9, 1307.4, 653.7, 163.4, 163.4, 5.3);
}
END_TEST

START_TEST(test_mi325x)
{
	struct plane_stats p;

	gpu(&p, "AMD", NULL, 9, 4, 304, 256, 2100);
	expect(&p, "MI325X", 2614.9, 1307.4, 653.7, 163.4, 163.4, 6.0);
}
END_TEST

START_TEST(test_mi355x)
{
	struct plane_stats p;

	gpu(&p, "AMD", NULL, 9, 5, 256, 288, 2400);
	expect(&p, "MI355X", 5033.2, 2516.6, 0, 157.3, 78.6, 8.0);
}
END_TEST

START_TEST(test_mi350x)
{
	struct plane_stats p;

	gpu(&p, "AMD", NULL, 9, 5, 256, 288, 2200);
	expect(&p, "MI350X", 4613.7, 2306.9, 0, 144.2, 72.1, 8.0);
}
END_TEST

START_TEST(test_tpus)
{
	struct plane_stats p;

	tpu(&p, "TPU v4");
	expect(&p, "TPU v4", 0, 275, 0, 0, 0, 1.2);
	tpu(&p, "TPU v5 Lite");
	expect(&p, "TPU v5e", 0, 197, 0, 0, 0, 0.819);
	tpu(&p, "TPU v5");
	expect(&p, "TPU v5p", 0, 459, 0, 0, 0, 2.765);
	tpu(&p, "TPU v6 Lite");
	expect(&p, "TPU v6e", 0, 918, 0, 0, 0, 1.64);
}
END_TEST

/* Not in the table: the plane's own figures, as xprof derives them. */
START_TEST(test_unknown_devices)
{
	struct plane_stats p;
	struct device_peak pk;

	tpu(&p, "TPU v99");
	ck_assert_int_eq(device_peak_of(p.st, p.n, &pk), 0);
	ck_assert_ptr_null(pk.model);
	ck_assert_int_eq(pk.source, PEAK_PROFILE);
	ck_assert_double_eq_tol(pk.top_gflops, 100500, 1e-6);
	ck_assert_double_eq_tol(pk.gbps, 500.5, 1e-9);
	/* An RTX 4090 (8.9): 128 SMs at 2.52 GHz, 1,024 FLOP per cycle. */
	gpu(&p, "Nvidia", "NVIDIA GeForce RTX 4090", 8, 9, 128, 23.6, 2520);
	ck_assert_int_eq(device_peak_of(p.st, p.n, &pk), 0);
	ck_assert_ptr_null(pk.model);
	ck_assert_double_eq_tol(pk.top_gflops, 128 * 2.52 * 1024, 1e-6);
	ck_assert_double_eq_tol(pk.gbps, 1000, 1e-9);
	/* No peaks at all: none. */
	memset(&p, 0, sizeof p);
	add_str(&p, "device_vendor", "Nvidia");
	ck_assert_int_eq(device_peak_of(p.st, p.n, &pk), -1);
}
END_TEST

Suite *
suite_device_peak(void)
{
	Suite *s = suite_create("device_peak");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_h100_sxm);
	tcase_add_test(tc, test_h100_pcie);
	tcase_add_test(tc, test_h100_nvl);
	tcase_add_test(tc, test_h200);
	tcase_add_test(tc, test_b200);
	tcase_add_test(tc, test_a100);
	tcase_add_test(tc, test_v100);
	tcase_add_test(tc, test_mi300x);
	tcase_add_test(tc, test_mi325x);
	tcase_add_test(tc, test_mi355x);
	tcase_add_test(tc, test_mi350x);
	tcase_add_test(tc, test_tpus);
	tcase_add_test(tc, test_unknown_devices);
	suite_add_tcase(s, tc);
	return s;
}
