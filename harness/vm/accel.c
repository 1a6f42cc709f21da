/* Choosing KVM or TCG (accel.h). The remembered verdict is keyed by the
 * host's kernel release and the qemu binary (size, mtime): a new kernel or
 * qemu gets KVM tried again. */
#include "config.h"
#include "harness/vm/accel.h"
#include "harness/vm/exec.h"
#include "harness/vm/qemu.h"
#include "lib/error.h"
#include "lib/fsutil.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

const char *const vm_accel_names[] = { "auto", "kvm", "tcg", NULL };
_Static_assert(sizeof(vm_accel_names) / sizeof(*vm_accel_names) == VM_ACCEL_TCG + 2,
	       "vm_accel_names: one name per enum vm_accel, then NULL");

const char *vm_accel_name(enum vm_accel a)
{
	return vm_accel_names[a];
}

int vm_kvm_usable(char *why, size_t why_len)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), version;

	if (fd < 0)
		return error_why(why, why_len, "/dev/kvm: %s", strerror(errno));
	version = ioctl(fd, KVM_GET_API_VERSION, 0);
	close(fd);
	if (version != KVM_API_VERSION)
		return error_why(why, why_len, "/dev/kvm speaks KVM API %d, not %d", version,
				 KVM_API_VERSION);
	return 0;
}

/* "RELEASE QEMU-SIZE QEMU-MTIME": what the verdict holds for. */
static void vm_accel_host_key(char *key, size_t len)
{
	struct utsname u;
	struct stat st = { 0 };
	char path[4096];

	uname(&u);
	if (vm_find_command(VM_QEMU, path, sizeof(path)))
		stat(path, &st);
	snprintf(key, len, "%s %lld %lld", u.release, (long long)st.st_size,
		 (long long)st.st_mtime);
}

bool vm_accel_try_kvm(const char *cache, char *why, size_t why_len)
{
	char path[4096], key[256], line[256], reason[512];
	FILE *f;

	if (vm_kvm_usable(why, why_len) < 0)
		return false;
	snprintf(path, sizeof(path), "%s/kvm-failed", cache);
	if (!(f = fopen(path, "re")))
		return true;
	vm_accel_host_key(key, sizeof(key));
	if (fgets(line, sizeof(line), f) && fgets(reason, sizeof(reason), f)) {
		line[strcspn(line, "\n")] = reason[strcspn(reason, "\n")] = '\0';
		if (!strcmp(line, key)) {
			fclose(f);
			error_why(why, why_len, "%s on an earlier run (%s; --accel kvm tries again)",
				  reason, path);
			return false;
		}
	}
	fclose(f);
	return true;
}

void vm_accel_remember_kvm_failed(const char *cache, const char *why)
{
	char path[4096], key[256];
	FILE *f;

	vm_accel_host_key(key, sizeof(key));
	snprintf(path, sizeof(path), "%s/kvm-failed", cache);
	if (fs_mkdirs(cache) < 0 || !(f = fopen(path, "we")))
		return;		/* only a shortcut for the next run */
	fprintf(f, "%s\n%s\n", key, why);
	fclose(f);
}
