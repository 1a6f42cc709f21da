/* Helpers shared by the subcommands: --help detection, usage text, and
 * option parsing with options anywhere. */
#include "config.h"
#include "harness/cmd/cmd.h"
#include "lib/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}

void cmd_usage(const struct cmd *c, const char *options_text)
{
	printf("usage: starve %s %s\n\n%s\n", c->name, c->args, c->summary);
	if (options_text && *options_text)
		printf("\n%s", options_text);
}

int cmd_parse_options(int argc, char **argv, const char *shortopts,
		      const struct option *longopts,
		      int (*fn)(int c, char *arg, void *data), void *data,
		      char ***ops, int *n_ops)
{
	char spec[64], **out = calloc((size_t)argc + 1, sizeof(*out));
	int c, n = 0, ret = 0;

	*ops = out;
	*n_ops = 0;
	if (!out)
		return error("out of memory");
	/* "-": operands come back in order as option 1 and argv is not
	 * permuted; POSIXLY_CORRECT would otherwise stop at the first one. */
	snprintf(spec, sizeof(spec), "-%s", shortopts);
	optind = 0;	/* glibc: full re-initialisation, so tests can parse twice */
	while (ret == 0 && (c = getopt_long(argc, argv, spec, longopts, NULL)) != -1) {
		if (c == 1)
			out[n++] = optarg;
		else
			ret = fn(c, optarg, data);
	}
	while (ret == 0 && optind < argc)	/* after "--" */
		out[n++] = argv[optind++];
	*n_ops = n;
	return ret;
}

int cmd_not_yet(const struct cmd *c, const char *issue)
{
	error("'starve %s' is not implemented yet (%s)", c->name, issue);
	return EXIT_RUNTIME;
}
