/*
 * Precision: the arithmetic an op computes in, so that it is judged
 * against its device's peak at that precision (device-peak.h), and the
 * rules that find it: an HLO element type, a kernel's name, and what an
 * f32 dot that allows TF32 runs as on a device (jaxprof-top(1), PEAKS).
 *
 *	int p = precision_of_kernel("sm90_xmma_gemm_f32f32_tf32f32_f32_nt");
 *	precision_name(p) ... "tf32"
 */
#ifndef JAXPROF_PRECISION_H
#define JAXPROF_PRECISION_H

#include <stdint.h>

/* The precisions the table gives rates for, narrowest float first. */
enum precision {
	PREC_FP8,
	PREC_BF16,	/* bf16 and fp16 */
	PREC_TF32,
	PREC_FP32,
	PREC_FP64,
	PREC_INT8,
	PREC_N,
};

/* An int holding an enum precision, or this when it is not known. */
#define PREC_UNKNOWN	(-1)

/* "fp8", "bf16", "tf32", "fp32", "fp64", "int8"; NULL for PREC_UNKNOWN. */
const char	*precision_name(int p);
/* The precision of that name, or PREC_UNKNOWN (s NULL too). */
int		 precision_parse(const char *s);
/*
 * The precision arithmetic on XLA PrimitiveType t runs in: f32 and c64
 * fp32, f64 and c128 fp64, f16 and bf16 bf16, the f8 types fp8, s8 and
 * u8 int8; PREC_UNKNOWN for any other (pred, wider integers, tuples).
 */
int		 precision_of_type(int32_t t);
/*
 * The precision a GEMM or convolution kernel's name says it computes
 * in: cuBLAS and CUTLASS name their types (tf32, bf16, f16, e4m3...;
 * CUTLASS's s1688gemm is TF32's MMA),
 * Tensile its data types after the operands' layouts (Cijk_Ailk_Bljk_BBS:
 * bf16); PREC_UNKNOWN when the name says none.
 */
int		 precision_of_kernel(const char *name);
/*
 * What an f32 dot or convolution whose precision config allows TF32
 * (DEFAULT or HIGH) runs as: bf16 passes on a TPU, TF32 on a GPU with a
 * TF32 rate (tf32_gflops > 0), else fp32.
 */
int		 precision_of_f32_dot(int on_tpu, double tf32_gflops);

#endif
