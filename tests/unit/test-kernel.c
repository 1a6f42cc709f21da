/* Unit tests for harness/kernel/kernel.c: the parser of debugfs sched/preempt (the
 * 6.18 and 6.12-rt texts) and the model text `starve env` and result.json
 * show, including a dynamic PREEMPT_RT kernel's sub-mode. */
#include "config.h"
#include "harness/kernel/kernel.h"

#include "tests/unit/unit.h"

#include <check.h>

START_TEST(the_marked_model_is_parsed)
{
	/* 6.18 PREEMPT_DYNAMIC */
	ck_assert_str_eq(kernel_preempt_parse("none voluntary (full) lazy\n"), "full");
	ck_assert_str_eq(kernel_preempt_parse("(none) voluntary full lazy\n"), "none");
	/* 6.12-rt: PREEMPT_RT and dynamic */
	ck_assert_str_eq(kernel_preempt_parse("full (lazy) laziest\n"), "lazy");
	ck_assert_str_eq(kernel_preempt_parse("full lazy (laziest)\n"), "laziest");
	ck_assert_str_eq(kernel_preempt_parse("(full) lazy\n"), "full");
	ck_assert_ptr_null(kernel_preempt_parse("none voluntary full lazy\n"));
	ck_assert_ptr_null(kernel_preempt_parse("none (bogus) full\n"));
	ck_assert_ptr_null(kernel_preempt_parse("(fullx) lazy\n"));
	ck_assert_ptr_null(kernel_preempt_parse("(full"));
}
END_TEST

START_TEST(the_model_text_keeps_an_rt_sub_mode)
{
	struct kernel_info k = { .preempt = "full", .preempt_dynamic = true };
	char buf[64];

	ck_assert_str_eq(kernel_preempt_text(&k, buf, sizeof(buf)), "full (dynamic)");
	k = (struct kernel_info){ .preempt = "none" };
	ck_assert_str_eq(kernel_preempt_text(&k, buf, sizeof(buf)), "none");
	k = (struct kernel_info){ .preempt = "rt" };
	ck_assert_str_eq(kernel_preempt_text(&k, buf, sizeof(buf)), "rt");
	k = (struct kernel_info){ .preempt = "rt", .preempt_dynamic = true };
	ck_assert_str_eq(kernel_preempt_text(&k, buf, sizeof(buf)), "rt (dynamic)");
	k.preempt_rt_mode = "lazy";
	ck_assert_str_eq(kernel_preempt_text(&k, buf, sizeof(buf)), "rt (dynamic: lazy)");
}
END_TEST

START_TEST(the_running_kernel_has_a_model)
{
	struct kernel_info k;
	char buf[64];

	kernel_probe(&k);
	ck_assert_ptr_nonnull(k.preempt);
	ck_assert_ptr_nonnull(k.preempt_source);
	ck_assert(kernel_preempt_text(&k, buf, sizeof(buf))[0] != '\0');
	/* Only a PREEMPT_RT kernel has a sub-mode. */
	if (k.preempt_rt_mode)
		ck_assert_str_eq(k.preempt, "rt");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernel");
	TCase *tc = tcase_create("preempt");

	tcase_add_test(tc, the_marked_model_is_parsed);
	tcase_add_test(tc, the_model_text_keeps_an_rt_sub_mode);
	tcase_add_test(tc, the_running_kernel_has_a_model);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
