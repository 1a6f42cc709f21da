/* Unit tests for config fragments (harness/vm/fragment.c, kconfig-why.c):
 * the shipped fragment parses; a bad line is named file:line:col; and after
 * a (fake) olddefconfig every option that did not survive is named with the
 * reason a fake tree's Kconfig files give. */
#include "config.h"
#include "harness/vm/fragment.h"
#include "harness/vm/kconfig.h"
#include "lib/error.h"
#include "lib/fsutil.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[64], path[256];

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/starve-fragment-test-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
	fs_remove_tree(tmp);
}

static const char *in_tmp(const char *name, const char *text)
{
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	if (text)
		unit_write_file(path, text);
	return path;
}

START_TEST(the_shipped_fragment_asks_for_what_the_guest_needs)
{
	struct vm_fragment f;
	const char *want[] = { "CONFIG_ACPI", "CONFIG_FILE_LOCKING", "CONFIG_NET", "CONFIG_UNIX",
			       "CONFIG_SCHED_CLASS_EXT", "CONFIG_DEBUG_INFO_BTF", "CONFIG_PSI" };

	ck_assert_int_eq(vm_fragment_load(NULL, &f), 0);
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		size_t i = 0;

		while (i < f.n && strcmp(f.options[i].name, want[w]))
			i++;
		ck_assert_msg(i < f.n, "%s is not in the fragment", want[w]);
		/* PSI is slow and asked to be off */
		ck_assert_str_eq(f.options[i].value, strcmp(want[w], "CONFIG_PSI") ? "y" : "");
	}
	vm_fragment_free(&f);
}
END_TEST

static char messages[2048];

static void collect(const char *msg, void *data)
{
	(void)data;
	snprintf(messages + strlen(messages), sizeof(messages) - strlen(messages), "%s\n", msg);
}

START_TEST(a_bad_line_is_named_with_its_file_line_and_column)
{
	struct vm_fragment f;

	messages[0] = '\0';
	error_set_sink(collect, NULL);
	ck_assert_int_eq(vm_fragment_load(in_tmp("bad.config", "# fine\nCONFIG_A=y\n\nCONFIG_B=yes\n"
						  "CONFIG_C y\n# CONFIG_D is unset\n"), &f), -1);
	error_set_sink(NULL, NULL);
	ck_assert_msg(strstr(messages, "bad.config:4:10: CONFIG_B: value 'yes' is not y, m, n"),
		      "%s", messages);
	ck_assert_msg(strstr(messages, "bad.config:5:9: expected CONFIG_NAME=value"), "%s", messages);
	ck_assert_msg(strstr(messages, "bad.config:6:11: expected '# CONFIG_D is not set'"), "%s",
		      messages);
	ck_assert_int_eq(vm_fragment_load(in_tmp("good.config", "CONFIG_N=250\nCONFIG_S=\"x y\"\n"
						  "CONFIG_H=0x1f\nCONFIG_OFF=n\n"), &f), 0);
	ck_assert_uint_eq(f.n, 4);
	ck_assert_str_eq(f.options[1].value, "\"x y\"");
	ck_assert_str_eq(f.options[3].value, "");
	vm_fragment_free(&f);
}
END_TEST

START_TEST(what_olddefconfig_dropped_is_named_with_its_reason)
{
	struct vm_fragment f;
	char tree[300], report[4096];

	in_tmp("frag", "CONFIG_NET=y\nCONFIG_UNIX=y\nCONFIG_VIRTIO_PCI=y\nCONFIG_GONE=y\n"
	       "CONFIG_HZ=1000\n# CONFIG_PSI is not set\n");
	ck_assert_int_eq(chdir(tmp), 0);	/* the report names the fragment as given */
	ck_assert_int_eq(vm_fragment_load("frag", &f), 0);
	snprintf(tree, sizeof(tree), "%s/tree", tmp);
	ck_assert_int_eq(mkdir(tree, 0755), 0);
	in_tmp("tree/Kconfig", "config UNIX\n\ttristate \"Unix domain sockets\"\n"
	       "\tdepends on NET && !FOO # a comment\n\nconfig NET\n\tbool\n"
	       "if VIRTIO_MENU\nconfig VIRTIO_PCI\n\ttristate\nendif\n");
	in_tmp(".config", "CONFIG_64BIT=y\nCONFIG_UNIX=y\nCONFIG_PSI=y\nCONFIG_HZ=250\n");
	ck_assert_int_eq(vm_fragment_check(&f, in_tmp(".config", NULL), tree, report,
					   sizeof(report)), 5);
	ck_assert_msg(strstr(report, "  CONFIG_NET=y (frag:1): dropped by olddefconfig; "), "%s",
		      report);
	/* UNIX survived here but NET is gone: only what differs is named */
	ck_assert_msg(!strstr(report, "CONFIG_UNIX=y (frag:2)"), "%s", report);
	ck_assert_msg(strstr(report, "CONFIG_VIRTIO_PCI=y (frag:3): dropped by olddefconfig; "
			     "inside 'if VIRTIO_MENU' (unmet: VIRTIO_MENU)"), "%s", report);
	ck_assert_msg(strstr(report, "CONFIG_GONE=y (frag:4): dropped by olddefconfig; no such "
			     "option in this tree"), "%s", report);
	ck_assert_msg(strstr(report, "CONFIG_HZ=1000 (frag:5): is 250 after olddefconfig"), "%s",
		      report);
	ck_assert_msg(strstr(report, "# CONFIG_PSI is not set (frag:6): is y after olddefconfig; "
			     "another option selects it"), "%s", report);
	/* the reason names the unmet symbols of a dependency */
	in_tmp(".config", "CONFIG_64BIT=y\nCONFIG_FOO=y\n");
	ck_assert_int_ge(vm_fragment_check(&f, in_tmp(".config", NULL), tree, report,
					   sizeof(report)), 1);
	ck_assert_msg(strstr(report, "CONFIG_UNIX=y (frag:2): dropped by olddefconfig; depends on "
			     "NET && !FOO (unmet: NET, !FOO)"), "%s", report);
	/* without a tree to read, where to look */
	ck_assert_int_ge(vm_fragment_check(&f, in_tmp(".config", NULL), NULL, report,
					   sizeof(report)), 1);
	ck_assert_msg(strstr(report, "check its dependencies (make menuconfig, search /NET)"), "%s",
		      report);
	ck_assert_int_eq(vm_fragment_check(&f, in_tmp("none", NULL), tree, report, sizeof(report)),
			 -1);
	ck_assert_msg(strstr(report, "cannot read"), "%s", report);
	vm_fragment_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fragment");
	TCase *tc = tcase_create("fragment");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, the_shipped_fragment_asks_for_what_the_guest_needs);
	tcase_add_test(tc, a_bad_line_is_named_with_its_file_line_and_column);
	tcase_add_test(tc, what_olddefconfig_dropped_is_named_with_its_reason);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
