/* Test helper for tests/integration/lava-yaml.sh: "yaml-parse FILE..."
 * reads each FILE with libyaml (the parser starve's profiles go through)
 * and says "FILE:LINE:COL: PROBLEM" for the first that is not YAML. Exit 0
 * when every file parses, 1 otherwise. */
#include "config.h"

#include <stdio.h>
#include <yaml.h>

static int parse_file(const char *path)
{
	yaml_parser_t parser;
	yaml_event_t event;
	FILE *f = fopen(path, "re");
	int ok = 1, done = 0;

	if (!f) {
		perror(path);
		return 0;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	while (ok && !done) {
		ok = yaml_parser_parse(&parser, &event);
		if (ok) {
			done = event.type == YAML_STREAM_END_EVENT;
			yaml_event_delete(&event);
		}
	}
	if (!ok)
		fprintf(stderr, "%s:%zu:%zu: %s\n", path, parser.problem_mark.line + 1,
			parser.problem_mark.column + 1, parser.problem ? parser.problem : "not YAML");
	yaml_parser_delete(&parser);
	fclose(f);
	return ok;
}

int main(int argc, char **argv)
{
	int ok = 1;

	for (int i = 1; i < argc; i++)
		ok &= parse_file(argv[i]);
	return ok ? 0 : 1;
}
