/* Why olddefconfig dropped an option of a config fragment, told from the
 * tree's own Kconfig files: the option's "depends on" lines and the "if"
 * blocks around it, with the symbols among them that the config lacks. */
#ifndef STARVE_VM_KCONFIG_WHY_H
#define STARVE_VM_KCONFIG_WHY_H

#include <stddef.h>

/* The reason OPTION ("CONFIG_X") is not as wanted in the config TEXT, from
 * the Kconfig files under TREE, into BUF: "depends on NET (unmet: NET)", "no
 * such option in this tree", or, when TREE cannot tell, where to look. */
const char *vm_kconfig_why(const char *tree, const char *text, const char *option, char *buf,
			   size_t len);

#endif
