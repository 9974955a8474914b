/*
 * Kernel stats: which kernels use the tensor cores, NVIDIA's by xprof's
 * name patterns, AMD's matrix cores by their instructions' names and by
 * the HLO op an XLA-built code object runs.
 */
#include "config.h"

#include "check_suites.h"
#include "model/kernel-stats.h"

START_TEST(test_nvidia_names)
{
	ck_assert(kernel_uses_tensor_core("sm90_xmma_gemm_bf16bf16_bf16f32_"
	    "f32_tn_n_tilesize128x128x64", "gemm"));
	ck_assert(kernel_uses_tensor_core("volta_h884gemm_64x64_ldg8_nn",
	    NULL));
	ck_assert(!kernel_uses_tensor_core("gemm_fusion_dot_106", "gemm "
	    "fusion"));
	ck_assert(!kernel_uses_tensor_core("loop_add_fusion", "loop fusion"));
}
END_TEST

START_TEST(test_amd_names)
{
	/* Tensile: the matrix instruction in the name; _MI0_ is none. */
	ck_assert(kernel_uses_tensor_core("Cijk_Ailk_Bljk_BBS_BH_MT256x224x64_"
	    "MI16x16x16x1_SN_1LDSB1", "gemm"));
	ck_assert(kernel_uses_tensor_core("Cijk_Alik_Bljk_HHS_BH_MT64x64x32_"
	    "MI32x32x8x1_SE_K1", NULL));
	ck_assert(!kernel_uses_tensor_core("Cijk_Ailk_Bljk_SB_MT64x64x8_MI0_"
	    "SE", "gemm"));
	ck_assert(!kernel_uses_tensor_core("Cijk_Ailk_Bljk_SB_MIAV0_SE",
	    NULL));
	/* Composable Kernel's fused attention, old and ck_tile names. */
	ck_assert(kernel_uses_tensor_core("fmha_fwd_d128_bf16_batch_b128x128",
	    NULL));
	ck_assert(kernel_uses_tensor_core("_ZN7ck_tile6kentryILi64ENS_13Fmha"
	    "FwdKernelINS_30BlockFmhaPipelineQRKSVSAsync", NULL));
	ck_assert(kernel_uses_tensor_core("rocwmma_gemm_kernel", NULL));
	ck_assert(kernel_uses_tensor_core("gemm_WMMA_16x16x16_f16", NULL));
	ck_assert(kernel_uses_tensor_core("igemm_fwd_gtcx3_nhwc_fp16_mfma",
	    NULL));
}
END_TEST

START_TEST(test_amd_by_op)
{
	/* XLA's Triton gemm fusions on ROCm: the .kd code object's op. */
	ck_assert(kernel_uses_tensor_core("gemm_fusion_dot_general_1.kd",
	    "gemm fusion"));
	ck_assert(kernel_uses_tensor_core("triton_gemm_dot.kd", "gemm"));
	ck_assert(kernel_uses_tensor_core("conv_fusion.kd", "convolution"));
	ck_assert(!kernel_uses_tensor_core("loop_convert_fusion.kd",
	    "loop fusion"));
	ck_assert(!kernel_uses_tensor_core("gemm_fusion_dot_general_1.kd",
	    NULL));
	/* MIOpen's im2col for a convolution runs no matrix instruction. */
	ck_assert(!kernel_uses_tensor_core("Im3d2Col", "convolution"));
}
END_TEST

Suite *
suite_kernel_stats(void)
{
	Suite *s = suite_create("kernel_stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_nvidia_names);
	tcase_add_test(tc, test_amd_names);
	tcase_add_test(tc, test_amd_by_op);
	suite_add_tcase(s, tc);
	return s;
}
