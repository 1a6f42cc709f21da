/* libFuzzer target: the result reader (reports/result-view: the schema
 * check and the typed view every report goes through) on any bytes.
 * `make fuzz` runs it from the test results as seeds. */
#include "config.h"
#include "lib/error.h"
#include "reports/result-view.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

static void fuzz_quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	error_set_sink(fuzz_quiet, NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[1024];
	json_t *tree = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	struct result_view *v;

	if (!tree)
		return 0;
	v = rv_build(tree, "fuzz.json", why, sizeof(why));	/* keeps its own reference */
	rv_free(v);
	json_decref(tree);
	return 0;
}
