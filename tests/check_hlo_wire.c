/*
 * The wire decoder (hlo-wire.c) against protobuf-c: on the HLO protos of
 * fuzz/corpus/hlo and on broken copies of them (cut short, a byte changed,
 * a field twice), whatever it takes, protobuf-c takes too and reads the
 * same; what it leaves, protobuf-c decides.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "read/hlo-wire.h"
#include "proto/hlo.pb-c.h"

static void *
sys_alloc(void *data, size_t n)
{
	(void)data;
	return calloc(1, n > 0 ? n : 1);
}

static void
sys_free(void *data, void *p)
{
	(void)data;
	free(p);
}

/*
 * The wire decoder's pieces, remembered to be freed at once (the decoder
 * frees nothing itself, as with the arena it is given in read-hlo.c).
 */
struct pieces {
	void	**p;
	size_t	  n, cap;
};

/* Grown by doubling: one realloc per piece copies the list each time. */
static void *
kept_alloc(void *data, size_t n)
{
	struct pieces *ps = data;

	if (ps->n == ps->cap) {
		ps->cap = ps->cap == 0 ? 256 : 2 * ps->cap;
		ps->p = realloc(ps->p, ps->cap * sizeof *ps->p);
		ck_assert_ptr_nonnull(ps->p);
	}
	return ps->p[ps->n++] = calloc(1, n > 0 ? n : 1);
}

static void
pieces_free(struct pieces *ps)
{
	while (ps->n > 0)
		free(ps->p[--ps->n]);
	free(ps->p);
	ps->p = NULL;
	ps->cap = 0;
}

/* Whether the known fields of a and b hold the same. */
static int
same(const ProtobufCMessageDescriptor *d, const void *a, const void *b)
{
	unsigned i;

	for (i = 0; i < d->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		const char *x = (const char *)a + f->offset;
		const char *y = (const char *)b + f->offset;
		size_t n = 1, k, size;

		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			n = *(const size_t *)((const char *)a +
			    f->quantifier_offset);
			if (n != *(const size_t *)((const char *)b +
			    f->quantifier_offset))
				return 0;
			x = *(char *const *)x;
			y = *(char *const *)y;
		}
		size = f->type == PROTOBUF_C_TYPE_INT64 ? sizeof(int64_t) :
		    f->type == PROTOBUF_C_TYPE_INT32 ? sizeof(int32_t) :
		    f->type == PROTOBUF_C_TYPE_BOOL ?
		    sizeof(protobuf_c_boolean) : sizeof(void *);
		for (k = 0; k < n; k++, x += size, y += size) {
			const void *px, *py;

			switch (f->type) {
			case PROTOBUF_C_TYPE_STRING:
				if (strcmp(*(char *const *)x,
				    *(char *const *)y) != 0)
					return 0;
				break;
			case PROTOBUF_C_TYPE_MESSAGE:
				px = *(void *const *)x;
				py = *(void *const *)y;
				if ((px == NULL) != (py == NULL) ||
				    (px != NULL && !same(f->descriptor, px,
				    py)))
					return 0;
				break;
			default:
				if (memcmp(x, y, size) != 0)
					return 0;
			}
		}
	}
	return 1;
}

/* One input through both; 1 when the wire decoder took it. */
static int
compare(const unsigned char *data, size_t len, const char *what)
{
	ProtobufCAllocator sys = { sys_alloc, sys_free, NULL };
	struct pieces ps = { NULL, 0, 0 };
	ProtobufCAllocator kept = { kept_alloc, sys_free, &ps };
	ProtobufCMessage *w, *p;
	int took;

	w = hlo_wire_unpack(&xla__hlo_proto__descriptor, &kept, data, len);
	p = protobuf_c_message_unpack(&xla__hlo_proto__descriptor, &sys, len,
	    data);
	took = w != NULL;
	if (w != NULL) {
		ck_assert_msg(p != NULL, "%s: only the wire decoder took it",
		    what);
		ck_assert_msg(same(&xla__hlo_proto__descriptor, w, p),
		    "%s: read differently", what);
	}
	if (p != NULL)
		protobuf_c_message_free_unpacked(p, &sys);
	pieces_free(&ps);
	return took;
}

START_TEST(test_wire_as_protobuf_c)
{
	static const char *const names[] = {
		"jax-mlp-0.hlo.pb", "jax-mlp-1.hlo.pb", "jax-mlp-3.hlo.pb",
	};
	const char *td = test_env("TESTDATA");
	size_t i, k, len, took = 0, tried = 0;

	ck_assert_msg(td != NULL, "TESTDATA is not set");
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[4096], what[4200];
		unsigned char *data, *copy;

		test_fmt(path, sizeof path, "%s/../fuzz/corpus/hlo/%s", td,
		    names[i]);
		data = (unsigned char *)test_slurp(path, &len);
		ck_assert_int_eq(compare(data, len, path), 1);
		copy = malloc(2 * len);
		ck_assert_ptr_nonnull(copy);
		/* Cut short anywhere: inside a key, a length, a string. */
		for (k = 0; k < len; k += 1 + k / 64, tried++) {
			test_fmt(what, sizeof what, "%s cut at %zu", path, k);
			took += compare(data, k, what);
		}
		/* Each byte of the first 512 set to values that mean much. */
		for (k = 0; k < len && k < 512; k++) {
			static const unsigned char odd[] = {
				0x00, 0x01, 0x02, 0x08, 0x0f, 0x7f, 0x80, 0xff,
			};
			size_t v;

			memcpy(copy, data, len);
			for (v = 0; v < sizeof odd; v++, tried++) {
				copy[k] = odd[v];
				test_fmt(what, sizeof what, "%s byte %zu = %#x",
				    path, k, odd[v]);
				took += compare(copy, len, what);
			}
		}
		/* The module twice: protobuf-c merges them; it decides. */
		memcpy(copy, data, len);
		memcpy(copy + len, data, len);
		ck_assert_int_eq(compare(copy, 2 * len, "module twice"), 0);
		free(copy);
		free(data);
	}
	/* Both the wire decoder's way and protobuf-c's were taken. */
	ck_assert_uint_gt(took, 0);
	ck_assert_uint_lt(took, tried);
}
END_TEST

Suite *
suite_hlo_wire(void)
{
	Suite *s = suite_create("hlo-wire");
	TCase *tc = tcase_create("hlo-wire");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_wire_as_protobuf_c);
	suite_add_tcase(s, tc);
	return s;
}
