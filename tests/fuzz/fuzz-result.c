/* libFuzzer target: the result reader (reports/result-view: the schema
 * check and the typed view every report goes through) on any bytes.
 * `make fuzz` runs it from the test results as seeds. */
#include "config.h"
#include "tests/fuzz/fuzz.h"
#include "reports/result/result-view.h"

#include <jansson.h>

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
