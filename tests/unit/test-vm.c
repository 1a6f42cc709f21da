/* Unit tests for harness/vm/ without qemu: what --kernel resolves to (the
 * x86 boot header, configs beside images and in kernel trees, labels), the
 * kernel config check, the initramfs's cpio format, the channel a guest
 * sends its files on, and the progress line. Everything happens in a
 * temporary directory; nothing boots. */
#include "config.h"
#include "harness/vm/channel.h"
#include "harness/vm/cpio.h"
#include "harness/vm/debian.h"
#include "harness/vm/image.h"
#include "harness/vm/kconfig.h"
#include "harness/vm/progress.h"
#include "lib/error.h"
#include "lib/fsutil.h"

#include "tests/unit/unit.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[64];

static void setup(void)
{
	snprintf(tmp, sizeof(tmp), "/tmp/starve-vm-test-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
	fs_remove_tree(tmp);
}

static const char *in_tmp(const char *name)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", tmp, name);
	return p;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* A file with an x86 boot header as a bzImage has: setup in 2 sectors, the
 * version string at 0x300, SYSSIZE 16-byte units of payload after the setup
 * (the file holding HAVE of them), 64-bit unless told otherwise. */
static void write_image(const char *path, const char *version, unsigned syssize, unsigned have,
			int is64)
{
	size_t len = 1024 + 16 * (size_t)have;
	unsigned char *img = calloc(1, len > 1024 ? len : 1024);

	img[0x1f1] = 1;
	img[0x1f4] = (unsigned char)syssize;
	img[0x1f5] = (unsigned char)(syssize >> 8);
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f;
	img[0x207] = 0x02;	/* boot protocol 2.15 */
	img[0x20e] = 0x00;
	img[0x20f] = 0x01;	/* version string at 0x100 + 0x200 */
	img[0x236] = is64 ? 1 : 0;
	memcpy(img + 0x300, version, strlen(version));
	write_bytes(path, img, len);
	free(img);
}

static const char *header_error(const char *path)
{
	static char why[512];
	char release[128], version[256];

	why[0] = '\0';
	vm_image_read_header(path, release, sizeof(release), version, sizeof(version), why,
			     sizeof(why));
	return why;
}

START_TEST(the_boot_header_gives_the_release)
{
	char release[128], version[256], why[256];

	write_image(in_tmp("bzImage"), "6.19.0-rc1-mine+ (me@box) #3 SMP PREEMPT_DYNAMIC", 4, 4, 1);
	ck_assert_int_eq(vm_image_read_header(in_tmp("bzImage"), release, sizeof(release),
					      version, sizeof(version), why, sizeof(why)), 0);
	ck_assert_str_eq(release, "6.19.0-rc1-mine+");
	ck_assert_str_eq(version, "6.19.0-rc1-mine+ (me@box) #3 SMP PREEMPT_DYNAMIC");
}
END_TEST

START_TEST(what_is_not_a_bootable_kernel_says_what_it_is)
{
	char junk[4096];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (char)(i * 7 + 3);
	write_bytes(in_tmp("junk"), junk, sizeof(junk));
	ck_assert_ptr_nonnull(strstr(header_error(in_tmp("junk")), "no \"HdrS\" boot header"));
	memcpy(junk, "\177ELF", 4);
	write_bytes(in_tmp("vmlinux"), junk, sizeof(junk));
	ck_assert_ptr_nonnull(strstr(header_error(in_tmp("vmlinux")), "uncompressed vmlinux"));
	write_bytes(in_tmp("short"), "MZ", 2);
	ck_assert_ptr_nonnull(strstr(header_error(in_tmp("short")), "too short"));
	write_image(in_tmp("i386"), "6.1.0 #1", 4, 4, 0);
	ck_assert_ptr_nonnull(strstr(header_error(in_tmp("i386")), "32-bit"));
	write_image(in_tmp("cut"), "6.1.0 #1", 4000, 4, 1);
	ck_assert_ptr_nonnull(strstr(header_error(in_tmp("cut")), "cut short: 1088 bytes, its header "
							    "says 65024"));
	ck_assert_ptr_nonnull(strstr(header_error(in_tmp("missing")), "cannot read"));
}
END_TEST

START_TEST(the_config_is_found_where_a_kernel_developer_leaves_it)
{
	char out[512];

	mkdir(in_tmp("boot"), 0755);
	write_image(in_tmp("boot/vmlinuz-6.1.0-x"), "6.1.0-x #1", 4, 4, 1);
	ck_assert_ptr_null(vm_image_find_config(in_tmp("boot/vmlinuz-6.1.0-x"), "6.1.0-x", out,
						sizeof(out)));
	write_bytes(in_tmp("boot/config-6.1.0-other"), "CONFIG_X=y\n", 11);
	ck_assert_str_eq(vm_image_find_config(in_tmp("boot/vmlinuz-6.1.0-x"), "6.1.0-x", out,
					      sizeof(out)), "beside the image");	/* the only one */
	ck_assert_str_eq(out, in_tmp("boot/config-6.1.0-other"));
	write_bytes(in_tmp("boot/config-6.1.0-x"), "CONFIG_X=y\n", 11);
	vm_image_find_config(in_tmp("boot/vmlinuz-6.1.0-x"), "6.1.0-x", out, sizeof(out));
	ck_assert_str_eq(out, in_tmp("boot/config-6.1.0-x"));	/* its release wins */

	fs_mkdirs(in_tmp("linux/arch/x86/boot"));
	write_image(in_tmp("linux/arch/x86/boot/bzImage"), "6.19.0 #1", 4, 4, 1);
	ck_assert_ptr_null(vm_image_find_config(in_tmp("linux/arch/x86/boot/bzImage"), "6.19.0",
						out, sizeof(out)));
	write_bytes(in_tmp("linux/.config"), "CONFIG_X=y\n", 11);
	ck_assert_str_eq(vm_image_find_config(in_tmp("linux/arch/x86/boot/bzImage"), "6.19.0", out,
					      sizeof(out)), "the kernel tree");
	ck_assert_str_eq(out, in_tmp("linux/.config"));
}
END_TEST

START_TEST(a_kernel_tree_resolves_to_its_bzimage_and_config)
{
	char tree[256];
	struct vm_kernel k = { .spec = tree };
	struct vm_dirs dirs = { .cache = in_tmp("cache"), .work = tmp };

	snprintf(tree, sizeof(tree), "%s", in_tmp("linux"));
	fs_mkdirs(in_tmp("linux/arch/x86/boot"));
	ck_assert_int_eq(vm_image_resolve(&k, NULL, &dirs), -1);
	ck_assert_ptr_nonnull(strstr(k.error, "without arch/x86/boot/bzImage"));
	write_image(in_tmp("linux/arch/x86/boot/bzImage"), "6.19.0-mine #1", 4, 4, 1);
	write_bytes(in_tmp("linux/.config"), "CONFIG_X=y\n", 11);
	ck_assert_msg(vm_image_resolve(&k, NULL, &dirs) == 0, "%s", k.error);
	ck_assert_str_eq(k.release, "6.19.0-mine");
	ck_assert_str_eq(k.config, in_tmp("linux/.config"));
	ck_assert_int_eq((int)strlen(k.sha256), 64);
	ck_assert_int_eq(vm_image_resolve(&k, in_tmp("nosuch.config"), &dirs), -1);
	ck_assert_ptr_nonnull(strstr(k.error, "--kernel-config"));
}
END_TEST

START_TEST(a_kernel_is_a_file_a_package_name_or_an_alias)
{
	char why[512];

	write_bytes(in_tmp("bzImage"), "x", 1);
	ck_assert_int_eq(vm_image_check_spec(in_tmp("bzImage"), why, sizeof(why)), 0);
	ck_assert_int_eq(vm_image_check_spec("6.12-rt", why, sizeof(why)), 0);
	ck_assert_int_eq(vm_image_check_spec("linux-image-6.1.0-57-cloud-amd64", why, sizeof(why)), 0);
	ck_assert_int_eq(vm_image_check_spec("6.13-cloud", why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "6.1 6.1-cloud 6.1-rt 6.12 6.12-cloud 6.12-rt"));
	ck_assert_int_eq(vm_image_check_spec(in_tmp("nosuch"), why, sizeof(why)), -1);
	ck_assert_int_eq(vm_image_check_spec("linux-image-x_1.0_amd64.deb", why, sizeof(why)), -1);
	ck_assert_int_eq(vm_image_check_spec("linux-image-X", why, sizeof(why)), -1);
	ck_assert_str_eq(vm_debian_alias("6.1-cloud"), "linux-image-cloud-amd64");
	ck_assert_ptr_null(vm_debian_alias("linux-image-cloud-amd64"));
}
END_TEST

START_TEST(labels_default_to_the_release_and_are_made_unique)
{
	struct vm_kernel k[4] = { { .spec = "a/bzImage" }, { .spec = "b/bzImage" },
				  { .spec = "6.12-cloud" }, { .spec = "/x/my.deb" } };
	const char *given[] = { "6.12.1" };

	strcpy(k[0].release, "6.12.1");
	strcpy(k[1].release, "6.12.1");
	strcpy(k[2].release, "6.12.1");
	vm_image_labels(k, 4, NULL, 0);
	ck_assert_str_eq(k[0].label, "6.12.1");
	ck_assert_str_eq(k[1].label, "6.12.1#2");
	ck_assert_str_eq(k[2].label, "6.12.1#3");
	ck_assert_str_eq(k[3].label, "my.deb");	/* no release: the spec's name */
	/* a given label takes its name from the defaults after it */
	vm_image_labels(k + 1, 2, given, 1);
	ck_assert_str_eq(k[1].label, "6.12.1");
	ck_assert_str_eq(k[2].label, "6.12.1#2");
}
END_TEST

static char last_error[512];

static void capture(const char *msg, void *data)
{
	(void)data;
	snprintf(last_error, sizeof(last_error), "%s", msg);
}

START_TEST(given_labels_must_be_distinct_directory_names)
{
	const char *twice[] = { "old", "new", "old" }, *slash[] = { "a/b" }, *empty[] = { "" },
		   *dots[] = { ".." }, *fine[] = { "old", "new" };

	error_set_sink(capture, NULL);
	ck_assert_int_eq(vm_image_check_labels(twice, 3), -1);
	ck_assert_ptr_nonnull(strstr(last_error, "'old' is given twice"));
	ck_assert_int_eq(vm_image_check_labels(slash, 1), -1);
	ck_assert_int_eq(vm_image_check_labels(empty, 1), -1);
	ck_assert_int_eq(vm_image_check_labels(dots, 1), -1);
	ck_assert_int_eq(vm_image_check_labels(fine, 2), 0);
	error_set_sink(NULL, NULL);
}
END_TEST

static const char good_config[] =
	"# Linux/x86 6.1.0 Kernel Configuration\n"
	"CONFIG_64BIT=y\nCONFIG_BLK_DEV_INITRD=y\nCONFIG_BINFMT_ELF=y\nCONFIG_BINFMT_SCRIPT=y\n"
	"CONFIG_DEVTMPFS=y\nCONFIG_PROC_FS=y\nCONFIG_SYSFS=y\nCONFIG_TMPFS=y\n"
	"CONFIG_SERIAL_8250=y\nCONFIG_SERIAL_8250_CONSOLE=y\nCONFIG_FUTEX=y\n"
	"CONFIG_FILE_LOCKING=y\nCONFIG_NET=y\nCONFIG_UNIX=y\n"
	"CONFIG_SCHED_INFO=y\nCONFIG_DEBUG_FS=y\nCONFIG_SCHED_DEBUG=y\nCONFIG_CGROUPS=y\n"
	"CONFIG_CPUSETS=y\nCONFIG_HIGH_RES_TIMERS=y\n";

static void check_config(const char *text, struct vm_kconfig_report *r)
{
	char why[256];

	write_bytes(in_tmp("config"), text, strlen(text));
	ck_assert_int_eq(vm_kconfig_check(in_tmp("config"), r, why, sizeof(why)), 0);
}

/* GOOD_CONFIG with its line FROM replaced by TO. */
static const char *config_with(const char *from, const char *to)
{
	static char text[2048];
	const char *at = strstr(good_config, from);

	ck_assert_ptr_nonnull(at);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good_config), good_config, to,
		 at + strlen(from));
	return text;
}

START_TEST(the_config_check_names_what_the_guest_lacks)
{
	struct vm_kconfig_report r;
	char why[256];

	check_config(good_config, &r);
	ck_assert_str_eq(r.missing, "");
	ck_assert_str_eq(r.degraded, "");
	check_config(config_with("CONFIG_SERIAL_8250_CONSOLE=y",
				 "# CONFIG_SERIAL_8250_CONSOLE is not set"), &r);
	ck_assert_ptr_nonnull(strstr(r.missing, "CONFIG_SERIAL_8250_CONSOLE (the console"));
	/* a module is missing too: the initramfs has none */
	check_config(config_with("CONFIG_BLK_DEV_INITRD=y", "CONFIG_BLK_DEV_INITRD=m"), &r);
	ck_assert_ptr_nonnull(strstr(r.missing, "CONFIG_BLK_DEV_INITRD=m (the initramfs"));
	/* without NET, olddefconfig drops UNIX: the watchdog has no socket */
	check_config(config_with("CONFIG_NET=y\nCONFIG_UNIX=y\n", ""), &r);
	ck_assert_ptr_nonnull(strstr(r.missing, "CONFIG_NET CONFIG_UNIX (the watchdog"));
	/* what starve only loses; an option later kernels dropped is not asked for */
	check_config(config_with("CONFIG_CPUSETS=y", "# CONFIG_CPUSETS is not set"), &r);
	ck_assert_str_eq(r.missing, "");
	ck_assert_ptr_nonnull(strstr(r.degraded, "CONFIG_CPUSETS (cpusets"));
	check_config(config_with("CONFIG_SCHED_DEBUG=y\n", ""), &r);
	ck_assert_str_eq(r.degraded, "");
	check_config(config_with("CONFIG_SCHED_DEBUG=y", "# CONFIG_SCHED_DEBUG is not set"), &r);
	ck_assert_ptr_nonnull(strstr(r.degraded, "CONFIG_SCHED_DEBUG"));
	write_bytes(in_tmp("notes"), "hello\n", 6);
	ck_assert_int_eq(vm_kconfig_check(in_tmp("notes"), &r, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "not a kernel config"));
}
END_TEST

/* Read a newc archive back: names in order with their modes and sizes. */
static size_t read_cpio(const char *path, char names[][64], unsigned *modes, size_t *sizes,
			size_t max, char *data_of_x, size_t data_len)
{
	FILE *f = fopen(path, "r");
	static char buf[1 << 16];
	size_t len, off = 0, n = 0;

	ck_assert_ptr_nonnull(f);
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 110 <= len && n < max) {
		unsigned field[13];
		char hex[9] = { 0 };

		ck_assert_int_eq(memcmp(buf + off, "070701", 6), 0);
		for (int i = 0; i < 13; i++) {
			memcpy(hex, buf + off + 6 + 8 * i, 8);
			field[i] = (unsigned)strtoul(hex, NULL, 16);
		}
		snprintf(names[n], 64, "%s", buf + off + 110);
		modes[n] = field[1];
		sizes[n] = field[6];
		off = (off + 110 + field[11] + 3) & ~(size_t)3;	/* name padded to 4 */
		if (!strcmp(names[n], "bin/x"))
			snprintf(data_of_x, data_len, "%.*s", (int)field[6], buf + off);
		off = (off + field[6] + 3) & ~(size_t)3;	/* data padded to 4 */
		if (!strcmp(names[n++], "TRAILER!!!"))
			break;
	}
	return n;
}

START_TEST(the_initramfs_is_newc_with_parents_before_children)
{
	struct vm_cpio c;
	char names[16][64], x[16];
	unsigned modes[16];
	size_t sizes[16], n;

	ck_assert_int_eq(vm_cpio_open(&c, in_tmp("a.cpio")), 0);
	vm_cpio_data(&c, "init", 0755, "#!/bin/sh\n", 10);
	vm_cpio_data(&c, "bin/x", 0644, "hello", 5);
	vm_cpio_chardev(&c, "dev/console", 5, 1);
	vm_cpio_dir(&c, "bin");		/* already there: not again */
	ck_assert_int_eq(vm_cpio_close(&c), 0);
	n = read_cpio(in_tmp("a.cpio"), names, modes, sizes, 16, x, sizeof(x));
	ck_assert_uint_eq(n, 6);
	ck_assert_str_eq(names[0], "init");
	ck_assert_uint_eq(modes[0], 0100755);
	ck_assert_uint_eq(sizes[0], 10);
	ck_assert_str_eq(names[1], "bin");
	ck_assert_uint_eq(modes[1], 040755);
	ck_assert_str_eq(names[2], "bin/x");
	ck_assert_str_eq(x, "hello");
	ck_assert_str_eq(names[3], "dev");
	ck_assert_str_eq(names[4], "dev/console");
	ck_assert_uint_eq(modes[4], 020600);
	ck_assert_str_eq(names[5], "TRAILER!!!");
}
END_TEST

START_TEST(a_cpio_error_sticks_and_is_reported_at_close)
{
	struct vm_cpio c;

	ck_assert_int_eq(vm_cpio_open(&c, in_tmp("b.cpio")), 0);
	vm_cpio_copy(&c, "bin/nosuch", 0755, in_tmp("nosuch"));
	vm_cpio_data(&c, "init", 0755, "x", 1);
	ck_assert_int_eq(vm_cpio_close(&c), -1);
	ck_assert_ptr_nonnull(strstr(c.error, "cannot read"));
	ck_assert_ptr_nonnull(strstr(c.error, "nosuch"));
}
END_TEST

#define HELLO_SHA "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"

START_TEST(the_channel_keeps_whole_files_only)
{
	static const char stream[] =
		"[    1.0] console noise\n"
		"STARVE-VM hello 6.1.0-x\n"
		"STARVE-VM profile 1 2 rt-throttle\n"
		"STARVE-VM status rt-throttle 1\n"
		"STARVE-VM sending 4\n"
		"STARVE-VM file 5 " HELLO_SHA " a/b.txt\n" "aGVsbG8=\n" "STARVE-VM end\n"
		"STARVE-VM file 5 " HELLO_SHA "ff bad.txt\n" "aGVsbG8=\n" "STARVE-VM end\n"
		"STARVE-VM file 5 " HELLO_SHA " ../escape.txt\n" "aGVsbG8=\n" "STARVE-VM end\n"
		"STARVE-VM file 6 " HELLO_SHA " short.txt\n" "aGVsbG8=\n" "STARVE-VM end\n"
		"STARVE-VM done\n"
		"STARVE-VM file 5 " HELLO_SHA " cut.txt\n" "aGVs";
	struct vm_channel *ch = calloc(1, sizeof(*ch));

	vm_channel_init(ch, in_tmp("out"));
	for (size_t i = 0; i < sizeof(stream) - 1; i++)	/* a byte at a time, as a serial line */
		vm_channel_feed(ch, stream + i, 1);
	vm_channel_finish(ch);
	ck_assert(ch->hello && ch->sending && ch->done);
	ck_assert_str_eq(ch->release, "6.1.0-x");
	ck_assert_str_eq(ch->profile, "rt-throttle");
	ck_assert_int_eq(vm_channel_status(ch, "rt-throttle"), 1);
	ck_assert_int_eq(vm_channel_status(ch, "smoke"), -1);
	ck_assert_uint_eq(ch->files_announced, 4);
	ck_assert_uint_eq(ch->files_ok, 1);
	ck_assert_str_eq(unit_read_file(in_tmp("out/a/b.txt")), "hello");
	ck_assert_uint_eq(ch->files_bad, 4);	/* wrong digest, escaping path, short, cut */
	ck_assert_str_eq(ch->first_bad, "bad.txt");
	ck_assert_int_eq(access(in_tmp("out/bad.txt"), F_OK), -1);
	ck_assert_int_eq(access(in_tmp("out/bad.txt.part"), F_OK), -1);
	ck_assert_int_eq(access(in_tmp("escape.txt"), F_OK), -1);
	ck_assert_int_eq(access(in_tmp("out/cut.txt"), F_OK), -1);
	free(ch);
}
END_TEST

START_TEST(the_channel_reports_the_guests_error)
{
	struct vm_channel *ch = calloc(1, sizeof(*ch));
	static const char stream[] = "STARVE-VM hello 6.12.0\r\nSTARVE-VM error init=/x given\n";

	vm_channel_init(ch, tmp);
	vm_channel_feed(ch, stream, sizeof(stream) - 1);
	ck_assert(ch->hello && !ch->done);
	ck_assert_str_eq(ch->release, "6.12.0");
	ck_assert_str_eq(ch->error, "init=/x given");
	free(ch);
}
END_TEST

START_TEST(the_progress_line_relays_the_guests_own)
{
	static const char guest[] = "\rthrottled  rep 1/3\033[K\rthrottled  rep 2/3\033[K\r"
				    "\033[Kstarve: warning: a message\n\runthrottled";
	struct vm_progress p;
	char line[256], text[256];
	int saved = dup(STDERR_FILENO);
	FILE *f = fopen(in_tmp("stderr"), "w+");

	vm_progress_init(&p, false, 2);
	vm_progress_kernel(&p, 1, "6.12.0", "tcg");
	vm_progress_stage(&p, "rt-throttle");
	dup2(fileno(f), STDERR_FILENO);
	vm_progress_guest(&p, guest, sizeof(guest) - 1);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
	fclose(f);
	ck_assert_str_eq(text, "[6.12.0] starve: warning: a message\n");
	ck_assert_str_eq(p.guest, "throttled  rep 2/3");	/* "unthrottled" is not ended yet */
	vm_progress_format(&p, p.kernel_started_ns + 65000000000LL, line, sizeof(line));
	ck_assert_str_eq(line, "[2/2 6.12.0 tcg 1:05] rt-throttle: throttled  rep 2/3");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vm");
	TCase *tc = tcase_create("vm");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, the_boot_header_gives_the_release);
	tcase_add_test(tc, what_is_not_a_bootable_kernel_says_what_it_is);
	tcase_add_test(tc, the_config_is_found_where_a_kernel_developer_leaves_it);
	tcase_add_test(tc, a_kernel_tree_resolves_to_its_bzimage_and_config);
	tcase_add_test(tc, a_kernel_is_a_file_a_package_name_or_an_alias);
	tcase_add_test(tc, labels_default_to_the_release_and_are_made_unique);
	tcase_add_test(tc, given_labels_must_be_distinct_directory_names);
	tcase_add_test(tc, the_config_check_names_what_the_guest_lacks);
	tcase_add_test(tc, the_initramfs_is_newc_with_parents_before_children);
	tcase_add_test(tc, a_cpio_error_sticks_and_is_reported_at_close);
	tcase_add_test(tc, the_channel_keeps_whole_files_only);
	tcase_add_test(tc, the_channel_reports_the_guests_error);
	tcase_add_test(tc, the_progress_line_relays_the_guests_own);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
