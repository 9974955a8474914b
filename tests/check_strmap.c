/* String interning against a plain list: dense ids in first-seen order,
 * for keys of every length around the hash's 8-byte steps, with NULs. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "lib/strmap.h"

#define NKEYS	3000
#define MAXLEN	41

struct key {
	char	 bytes[MAXLEN];
	size_t	 len;
};

/* Keys from a 3-letter alphabet with NUL in it, so many share prefixes. */
static void
make_key(struct key *k, uint64_t *x)
{
	static const char alphabet[] = { 'a', 'b', '\0' };
	size_t i;

	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	k->len = (size_t)(*x >> 33) % MAXLEN;
	for (i = 0; i < k->len; i++) {
		*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
		k->bytes[i] = alphabet[(*x >> 33) % 3];
	}
}

/* The id a plain list gives: the index of the first equal key. */
static size_t
ref_id(const struct key *seen, size_t nseen, const struct key *k)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		if (seen[i].len == k->len &&
		    memcmp(seen[i].bytes, k->bytes, k->len) == 0)
			return i;
	return nseen;
}

START_TEST(test_against_list)
{
	static struct key seen[NKEYS];
	struct strmap m;
	uint64_t x = 42;
	size_t nseen = 0, i;

	strmap_init(&m);
	for (i = 0; i < NKEYS; i++) {
		struct key k;
		size_t want;

		make_key(&k, &x);
		want = ref_id(seen, nseen, &k);
		ck_assert_int_eq(strmap_find(&m, k.bytes, k.len),
		    want == nseen ? -1 : (int64_t)want);
		ck_assert_uint_eq(strmap_intern(&m, k.bytes, k.len), want);
		if (want == nseen)
			seen[nseen++] = k;
	}
	ck_assert_uint_eq(m.n, nseen);
	for (i = 0; i < nseen; i++) {
		ck_assert_uint_eq(m.lengths[i], seen[i].len);
		ck_assert(memcmp(m.strings[i], seen[i].bytes, seen[i].len) == 0);
		ck_assert(m.strings[i][seen[i].len] == '\0');
		ck_assert_int_eq(strmap_find(&m, seen[i].bytes, seen[i].len),
		    (int64_t)i);
	}
	strmap_release(&m);
}
END_TEST

Suite *
suite_strmap(void)
{
	Suite *s = suite_create("strmap");
	TCase *tc = tcase_create("strmap");

	tcase_add_test(tc, test_against_list);
	suite_add_tcase(s, tc);
	return s;
}
