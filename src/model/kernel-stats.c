/* Kernel stats: launch configuration and tensor cores (kernel-stats.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/kernel-stats.h"

/* Three comma-separated numbers into d, or d left as it was. */
static void
dims(const char *v, size_t len, int64_t d[3])
{
	int64_t t[3];
	const char *p = v, *end = v + len;
	int i;

	for (i = 0; i < 3; i++) {
		char *e;

		t[i] = strtoll(p, &e, 10);
		if (e == p || e > end || (i < 2 && (e == end || *e != ',')))
			return;
		p = e + 1;
	}
	if (p - 1 != end)
		return;
	memcpy(d, t, sizeof t);
}

void
kernel_launch_parse(const char *s, struct kernel_launch *out)
{
	int64_t stat = 0, dyn = 0;
	int i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < 3; i++)
		out->block[i] = out->grid[i] = 1;
	while (*s != '\0') {
		size_t len = strcspn(s, " \n"), klen;
		const char *colon = memchr(s, ':', len), *v;

		if (colon != NULL && memchr(colon + 1, ':',
		    len - (size_t)(colon + 1 - s)) == NULL) {
			klen = (size_t)(colon - s);
			v = colon + 1;
#define KEY(k)	(klen == sizeof k - 1 && memcmp(s, k, klen) == 0)
			if (KEY("regs"))
				out->regs = strtoll(v, NULL, 10);
			else if (KEY("static_shared"))
				stat = strtoll(v, NULL, 10);
			else if (KEY("dynamic_shared"))
				dyn = strtoll(v, NULL, 10);
			else if (KEY("block"))
				dims(v, len - klen - 1, out->block);
			else if (KEY("grid"))
				dims(v, len - klen - 1, out->grid);
			else if (KEY("occ_pct"))
				out->occ_pct = strtod(v, NULL);
#undef KEY
		}
		s += len;
		s += strspn(s, " \n");
	}
	out->shared = stat + dyn;
}

/*
 * A Tensile kernel's matrix instruction, "_MI16x16x16x1_": MxNxK of the
 * MFMA it is built on (Tensile names kernels without one "_MI0_" or
 * leave it out).
 */
static int
tensile_mfma(const char *name)
{
	const char *p;

	for (p = strstr(name, "_MI"); p != NULL; p = strstr(p + 1, "_MI"))
		if (p[3] >= '1' && p[3] <= '9' &&
		    p[3 + strspn(p + 3, "0123456789")] == 'x')
			return 1;
	return 0;
}

/* Whether a name ends with suffix. */
static int
ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n >= k && strcmp(name + n - k, suffix) == 0;
}

int
kernel_uses_tensor_core(const char *name, const char *category)
{
	/*
	 * The name patterns xprof knows tensor-core kernels by, and AMD's:
	 * MFMA and WMMA instructions named, CK's fused attention.
	 */
	static const char *const patterns[] = {
		"16816", "c1688", "conv1x1", "conv2d_c1_k1",
		"dgrad_1x1_stride_2x2", "direct_group",
		"first_layer_wgrad_kernel", "h1688", "h884", "hmma", "i16832",
		"i8816", "s884", "s1688", "xmma_gemm", "xmma_implicit_gemm",
		"xmma_sparse_conv", "xmma_sparse_gemm",
		"xmma_warp_specialized_implicit_gemm",
		"mfma", "MFMA", "wmma", "WMMA", "fmha", "Fmha",
	};
	size_t i;

	for (i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
		if (strstr(name, patterns[i]) != NULL)
			return 1;
	if (tensile_mfma(name))
		return 1;
	return ends_with(name, ".kd") && category != NULL &&
	    (strcmp(category, "gemm") == 0 ||
	    strcmp(category, "gemm fusion") == 0 ||
	    strcmp(category, "convolution") == 0);
}
