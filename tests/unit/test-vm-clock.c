/* The clock source starve vm boots TCG guests with (harness/vm/qemu.c):
 * the same for every guest unless --own-clocksource or a clocksource= in
 * --append says otherwise, and never under KVM, where kvm-clock serves. */
#include "config.h"
#include "harness/vm/image.h"
#include "harness/vm/qemu.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <string.h>

/* The -append argument of the qemu command for G. */
static const char *append_of(const struct vm_guest *g, struct vm_qemu_cmd *c)
{
	vm_qemu_command(g, c);
	for (int i = 0; i + 1 < c->argc; i++)
		if (!strcmp(c->argv[i], "-append"))
			return c->argv[i + 1];
	return "";
}

static struct vm_kernel kernel = { .image = "/boot/vmlinuz" };

START_TEST(tcg_guests_share_one_clock_source_unless_told)
{
	struct vm_guest g = { .kernel = &kernel, .initrd = "i", .outdir = "o", .workdir = "w",
			      .cpus = 2, .memory = "1G", .accel = VM_ACCEL_TCG };
	struct vm_qemu_cmd c;

	ck_assert_ptr_nonnull(strstr(append_of(&g, &c), " " VM_TCG_CLOCKSOURCE));
	ck_assert(vm_common_clock(&g));
	g.append = "preempt=full";
	ck_assert_ptr_nonnull(strstr(append_of(&g, &c), VM_TCG_CLOCKSOURCE " preempt=full"));
	g.own_clocksource = true;
	ck_assert_ptr_null(strstr(append_of(&g, &c), "clocksource=tsc"));
	ck_assert(!vm_common_clock(&g));
	g.own_clocksource = false;
	g.append = "clocksource=hpet";
	ck_assert_ptr_null(strstr(append_of(&g, &c), "clocksource=tsc"));
	ck_assert_ptr_nonnull(strstr(append_of(&g, &c), "clocksource=hpet"));
	g.append = NULL;
	g.accel = VM_ACCEL_KVM;
	ck_assert_ptr_null(strstr(append_of(&g, &c), "clocksource="));
	ck_assert(!vm_common_clock(&g));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vm-clock");
	TCase *tc = tcase_create("vm-clock");

	tcase_add_test(tc, tcg_guests_share_one_clock_source_unless_told);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
