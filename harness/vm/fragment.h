/* A kernel config fragment, as the kernel's merge_config.sh reads one:
 * "CONFIG_X=value" and "# CONFIG_X is not set" lines, comments and blank
 * lines. starve ships one (kernels/starve.config, compiled in) that holds
 * what a guest of `starve vm` needs; `starve build` merges it over a base
 * config and then checks that every option survived olddefconfig. */
#ifndef STARVE_VM_FRAGMENT_H
#define STARVE_VM_FRAGMENT_H

#include <stddef.h>

struct vm_fragment_option {
	char name[64];		/* "CONFIG_X" */
	char value[128];	/* "y", "250", "\"s\""; "" for "is not set" */
	unsigned line;
};

struct vm_fragment {
	char source[4096];	/* the file's path, or "starve.config (built in)" */
	char *text;		/* the whole fragment, as read */
	struct vm_fragment_option *options;
	size_t n;
};

/* The fragment starve ships. */
extern const char vm_fragment_builtin[];

/* Read the fragment at PATH (NULL: the built-in one) into F. A line that is
 * none of the four kinds is an error printed as "file:line:col: what", and
 * the whole fragment is read before returning -1 (F freed) if any. */
int vm_fragment_load(const char *path, struct vm_fragment *f);
void vm_fragment_free(struct vm_fragment *f);

/* The options of F that the config at CONFIG does not have as F sets them,
 * one "  CONFIG_X=y: what became of it; why" line each (the reason from the
 * Kconfig files of TREE, kconfig-why.h) into REPORT. Returns how many, or
 * -1 with REPORT saying why CONFIG cannot be read. */
int vm_fragment_check(const struct vm_fragment *f, const char *config, const char *tree,
		      char *report, size_t len);

#endif
