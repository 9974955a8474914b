/*
 * Arithmetic on numbers from input (lib/checked.h): every edge saturates
 * or refuses, as its comment says, and nothing wraps.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "check_suites.h"
#include "lib/checked.h"

START_TEST(test_signed_saturates)
{
	ck_assert_int_eq(sat_add(INT64_MAX, 1), INT64_MAX);
	ck_assert_int_eq(sat_add(INT64_MIN, -1), INT64_MIN);
	ck_assert_int_eq(sat_add(25088, INT64_MAX - 127), INT64_MAX);
	ck_assert_int_eq(sat_add(-5, 3), -2);
	ck_assert_int_eq(sat_sub(INT64_MIN, 1), INT64_MIN);
	ck_assert_int_eq(sat_sub(0, INT64_MIN), INT64_MAX);
	ck_assert_int_eq(sat_mul((int64_t)1 << 40, (int64_t)1 << 40),
	    INT64_MAX);
	ck_assert_int_eq(sat_mul(-((int64_t)1 << 40), (int64_t)1 << 40),
	    INT64_MIN);
	ck_assert_int_eq(sat_abs(INT64_MIN), INT64_MAX);
	ck_assert_int_eq(sat_from_double(1e30), INT64_MAX);
	ck_assert_int_eq(sat_from_double(-1e30), INT64_MIN);
	ck_assert_int_eq(sat_from_double(NAN), 0);
	ck_assert_int_eq(sat_from_double(-2.9), -2);
}
END_TEST

START_TEST(test_costs_stay_in_int64)
{
	ck_assert_uint_eq(cost_add(COST_LIMIT, 1), COST_LIMIT);
	ck_assert_uint_eq(cost_add(UINT64_MAX, UINT64_MAX), COST_LIMIT);
	ck_assert_uint_eq(cost_add(2, 3), 5);
	ck_assert_uint_eq(cost_from_double(-20.0), 0);
	ck_assert_uint_eq(cost_from_double(NAN), 0);
	ck_assert_uint_eq(cost_from_double(0x1p62 * 4), COST_LIMIT);
	ck_assert_uint_eq(cost_from_double(1e300), COST_LIMIT);
	ck_assert_uint_eq(cost_from_double(1234.9), 1234);
}
END_TEST

START_TEST(test_bytes_refused_past_limit)
{
	int64_t sum = BYTES_LIMIT - 1;

	ck_assert(bytes_valid(0));
	ck_assert(bytes_valid(BYTES_LIMIT));
	ck_assert(!bytes_valid(BYTES_LIMIT + 1));
	ck_assert(!bytes_valid(-1));
	ck_assert(checked_bytes_add(&sum, 1));
	ck_assert_int_eq(sum, BYTES_LIMIT);
	ck_assert(!checked_bytes_add(&sum, 1));
	ck_assert_int_eq(sum, BYTES_LIMIT);
	sum = 0;
	ck_assert(!checked_bytes_add(&sum, -1));
	ck_assert(!checked_bytes_add(&sum, INT64_MAX));
	ck_assert_int_eq(sum, 0);
}
END_TEST

Suite *
suite_checked(void)
{
	Suite *s = suite_create("checked");
	TCase *tc = tcase_create("checked");

	tcase_add_test(tc, test_signed_saturates);
	tcase_add_test(tc, test_costs_stay_in_int64);
	tcase_add_test(tc, test_bytes_refused_past_limit);
	suite_add_tcase(s, tc);
	return s;
}
