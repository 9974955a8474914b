/*
 * Precision rules (precision.c): the precision of an XLA element type,
 * of a GEMM kernel by its name (cuBLAS, CUTLASS and Tensile names as the
 * H200 and MI300X profiles have them), and what an f32 dot that allows
 * TF32 runs as on a TPU, a GPU with a TF32 rate and one without.
 */
#include "config.h"

#include "check_suites.h"
#include "model/precision.h"

START_TEST(test_names)
{
	int p;

	for (p = 0; p < PREC_N; p++)
		ck_assert_int_eq(precision_parse(precision_name(p)), p);
	ck_assert_str_eq(precision_name(PREC_TF32), "tf32");
	ck_assert_ptr_null(precision_name(PREC_UNKNOWN));
	ck_assert_ptr_null(precision_name(PREC_N));
	ck_assert_int_eq(precision_parse(NULL), PREC_UNKNOWN);
	ck_assert_int_eq(precision_parse("fp16"), PREC_UNKNOWN);
}
END_TEST

START_TEST(test_types)
{
	/* PrimitiveType numbers of xla_data.proto. */
	ck_assert_int_eq(precision_of_type(11), PREC_FP32);	/* F32 */
	ck_assert_int_eq(precision_of_type(15), PREC_FP32);	/* C64 */
	ck_assert_int_eq(precision_of_type(16), PREC_BF16);	/* BF16 */
	ck_assert_int_eq(precision_of_type(10), PREC_BF16);	/* F16 */
	ck_assert_int_eq(precision_of_type(12), PREC_FP64);	/* F64 */
	ck_assert_int_eq(precision_of_type(20), PREC_FP8);	/* F8E4M3FN */
	ck_assert_int_eq(precision_of_type(19), PREC_FP8);	/* F8E5M2 */
	ck_assert_int_eq(precision_of_type(2), PREC_INT8);	/* S8 */
	ck_assert_int_eq(precision_of_type(1), PREC_UNKNOWN);	/* PRED */
	ck_assert_int_eq(precision_of_type(4), PREC_UNKNOWN);	/* S32 */
	ck_assert_int_eq(precision_of_type(13), PREC_UNKNOWN);	/* TUPLE */
	ck_assert_int_eq(precision_of_type(-1), PREC_UNKNOWN);
}
END_TEST

START_TEST(test_nvidia_kernels)
{
	/* The H200 profile's cuBLAS gemms: f32 data, tf32 arithmetic. */
	ck_assert_int_eq(precision_of_kernel("sm90_xmma_gemm_f32f32_tf32f32_"
	    "f32_nt_n_tilesize128x256x32_warpgroupsize2x1x1_execute_segment_"
	    "k_off_kernel__5x_cublas"), PREC_TF32);
	ck_assert_int_eq(precision_of_kernel("sm90_xmma_gemm_bf16bf16_bf16f32"
	    "_f32_tn_n_tilesize128x128x64"), PREC_BF16);
	ck_assert_int_eq(precision_of_kernel("sm90_xmma_gemm_e4m3e4m3_e4m3f32"
	    "_f32_tn_n"), PREC_FP8);
	ck_assert_int_eq(precision_of_kernel("sm80_xmma_gemm_f32f32_f32f32_"
	    "f32_nn_n_tilesize64x64x8"), PREC_FP32);
	ck_assert_int_eq(precision_of_kernel("cutlass_80_tensorop_f16_s16816"
	    "gemm_relu_f16_256x128_32x3_nn_align8"), PREC_BF16);
	/* The H200 profile's CUTLASS gemm: f32 data on TF32's MMA. */
	ck_assert_int_eq(precision_of_kernel("void cutlass::Kernel2<cutlass_80"
	    "_tensorop_s1688gemm_64x64_16x6_nn_align4>"), PREC_TF32);
	ck_assert_int_eq(precision_of_kernel("cutlass_80_tensorop_bf16_s1688"
	    "gemm_bf16_128x128_32x4_tn_align8"), PREC_BF16);
	ck_assert_int_eq(precision_of_kernel("volta_dgemm_128x64_nn"),
	    PREC_FP64);
	ck_assert_int_eq(precision_of_kernel("gemm_fusion_dot_106"),
	    PREC_UNKNOWN);
	ck_assert_int_eq(precision_of_kernel("loop_add_fusion"),
	    PREC_UNKNOWN);
	ck_assert_int_eq(precision_of_kernel(NULL), PREC_UNKNOWN);
}
END_TEST

START_TEST(test_tensile_kernels)
{
	/* The MI300X profile's gemm: bf16 in, bf16 out, f32 compute. */
	ck_assert_int_eq(precision_of_kernel("Cijk_Ailk_Bljk_BBS_BH_MT256x224x"
	    "64_MI16x16x16x1_SN_1LDSB1_APM1"), PREC_BF16);
	ck_assert_int_eq(precision_of_kernel("Cijk_Alik_Bljk_HHS_BH_MT64x64x32"
	    "_MI32x32x8x1_SE_K1"), PREC_BF16);
	ck_assert_int_eq(precision_of_kernel("Cijk_Ailk_Bljk_SB_MT64x64x8_MI0"
	    "_SE"), PREC_FP32);
	ck_assert_int_eq(precision_of_kernel("Cijk_Ailk_Bljk_XS_BH_MT128x128x"
	    "32_MI32x32x4x1"), PREC_TF32);
	ck_assert_int_eq(precision_of_kernel("Cijk_Ailk_Bljk_DB_MT64x64x8"),
	    PREC_FP64);
	ck_assert_int_eq(precision_of_kernel("Cijk_Ailk_Bljk_F8SS_BH_MT256x256"
	    "x128_MI16x16x32x1"), PREC_FP8);
	ck_assert_int_eq(precision_of_kernel("Cijk_Ailk_Bljk_I8II_BH_MT128x128"
	    "x64"), PREC_INT8);
	/* Cut short: no data types to read. */
	ck_assert_int_eq(precision_of_kernel("Cijk_Ailk"), PREC_UNKNOWN);
}
END_TEST

START_TEST(test_f32_dot)
{
	/* XLA on a TPU runs DEFAULT f32 dots as one bf16 pass. */
	ck_assert_int_eq(precision_of_f32_dot(1, 0), PREC_BF16);
	/* An H200 (494.7 TFLOP/s of TF32) as TF32, a V100 (none) as fp32. */
	ck_assert_int_eq(precision_of_f32_dot(0, 494700), PREC_TF32);
	ck_assert_int_eq(precision_of_f32_dot(0, 0), PREC_FP32);
}
END_TEST

Suite *
suite_precision(void)
{
	Suite *s = suite_create("precision");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_types);
	tcase_add_test(tc, test_nvidia_kernels);
	tcase_add_test(tc, test_tensile_kernels);
	tcase_add_test(tc, test_f32_dot);
	suite_add_tcase(s, tc);
	return s;
}
