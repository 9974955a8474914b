/* Precision rules: element types, kernel names (precision.h). */
#include "config.h"

#include <string.h>

#include "model/precision.h"

static const char *const names[PREC_N] = {
	"fp8", "bf16", "tf32", "fp32", "fp64", "int8",
};

const char *
precision_name(int p)
{
	return p >= 0 && p < PREC_N ? names[p] : NULL;
}

int
precision_parse(const char *s)
{
	int p;

	for (p = 0; s != NULL && p < PREC_N; p++)
		if (strcmp(s, names[p]) == 0)
			return p;
	return PREC_UNKNOWN;
}

int
precision_of_type(int32_t t)
{
	/* XLA PrimitiveType numbers (xla_data.proto). */
	switch (t) {
	case 2:		/* S8 */
	case 6:		/* U8 */
		return PREC_INT8;
	case 10:	/* F16 */
	case 16:	/* BF16 */
		return PREC_BF16;
	case 11:	/* F32 */
	case 15:	/* C64 */
		return PREC_FP32;
	case 12:	/* F64 */
	case 18:	/* C128 */
		return PREC_FP64;
	case 19:	/* F8E5M2 */
	case 20:	/* F8E4M3FN */
	case 23:	/* F8E4M3B11FNUZ */
	case 24:	/* F8E5M2FNUZ */
	case 25:	/* F8E4M3FNUZ */
	case 28:	/* F8E4M3 */
	case 29:	/* F8E3M4 */
		return PREC_FP8;
	default:
		return PREC_UNKNOWN;
	}
}

/*
 * Tensile's data types: the token after Cijk_ and the two operand
 * layouts, its first type the inputs' (H half, B bf16, S float, X
 * xfloat32, D double, F8/B8 the fp8 types, I8 and 4xi8 int8).
 */
static int
tensile_precision(const char *name)
{
	const char *p = name + strlen("Cijk_");
	int skip;

	for (skip = 0; skip < 2; skip++) {
		if ((p = strchr(p, '_')) == NULL)
			return PREC_UNKNOWN;
		p++;
	}
	if (strncmp(p, "F8", 2) == 0 || strncmp(p, "B8", 2) == 0)
		return PREC_FP8;
	if (strncmp(p, "I8", 2) == 0 || strncmp(p, "4xi8", 4) == 0)
		return PREC_INT8;
	switch (p[0]) {
	case 'H':
	case 'B':
		return PREC_BF16;
	case 'S':
		return PREC_FP32;
	case 'X':
		return PREC_TF32;
	case 'D':
		return PREC_FP64;
	default:
		return PREC_UNKNOWN;
	}
}

int
precision_of_kernel(const char *name)
{
	/*
	 * Narrowest first: cuBLAS names its input and compute types
	 * (f32f32_tf32f32_f32: f32 data, tf32 arithmetic), so a narrower
	 * type named is the one computed in.
	 */
	static const struct {
		const char	*part;
		int		 prec;
	} parts[] = {
		{ "e4m3", PREC_FP8 }, { "e5m2", PREC_FP8 },
		{ "tf32", PREC_TF32 },
		{ "bf16", PREC_BF16 }, { "f16", PREC_BF16 },
		{ "h1688", PREC_BF16 }, { "h16816", PREC_BF16 },
		{ "hgemm", PREC_BF16 },
		/* CUTLASS's f32 tensor-op gemm: TF32's 16x8x8 MMA. */
		{ "s1688gemm", PREC_TF32 },
		{ "imma", PREC_INT8 }, { "i8816", PREC_INT8 },
		{ "f64", PREC_FP64 }, { "dgemm", PREC_FP64 },
		{ "sgemm", PREC_FP32 }, { "f32f32_f32f32", PREC_FP32 },
	};
	size_t i;

	if (name == NULL)
		return PREC_UNKNOWN;
	if (strncmp(name, "Cijk_", 5) == 0)
		return tensile_precision(name);
	for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (strstr(name, parts[i].part) != NULL)
			return parts[i].prec;
	return PREC_UNKNOWN;
}

int
precision_of_f32_dot(int on_tpu, double tf32_gflops)
{
	if (on_tpu)
		return PREC_BF16;
	return tf32_gflops > 0 ? PREC_TF32 : PREC_FP32;
}
