/* Which accelerator qemu uses (--accel auto|kvm|tcg). KVM runs the guest at
 * the host's speed but needs a /dev/kvm that can run the image: in a VM with
 * nested virtualisation /dev/kvm may open and still not boot a stock kernel
 * (doc/kernels.md). auto tries KVM with a short deadline for the guest's
 * first message and falls back to TCG, saying why; a host where KVM booted
 * nothing is remembered in the cache, so the next run goes to TCG at once. */
#ifndef STARVE_VM_ACCEL_H
#define STARVE_VM_ACCEL_H

#include <stdbool.h>
#include <stddef.h>

enum vm_accel { VM_ACCEL_AUTO, VM_ACCEL_KVM, VM_ACCEL_TCG };

/* Seconds KVM gets to reach the guest's /init before auto gives up on it
 * (a kernel boots in one or two under KVM). */
#define VM_KVM_HELLO_S 20

/* The names of enum vm_accel, in its order and NULL-ended: the choices of
 * --accel (harness/cmd/vm.c), whose index is the enum. */
extern const char *const vm_accel_names[];
const char *vm_accel_name(enum vm_accel a);

/* Whether /dev/kvm can be opened and speaks the KVM API: 0, or -1 with WHY
 * ("/dev/kvm: Permission denied"). */
int vm_kvm_usable(char *why, size_t why_len);

/* The choice for auto before any boot: KVM (true) unless /dev/kvm is unusable
 * or this host is known not to boot kernels under KVM; WHY says why not. */
bool vm_accel_try_kvm(const char *cache, char *why, size_t why_len);

/* KVM booted nothing here where TCG did: remember WHY for later runs. */
void vm_accel_remember_kvm_failed(const char *cache, const char *why);

#endif
