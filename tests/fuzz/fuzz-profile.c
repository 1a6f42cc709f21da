/* libFuzzer target: the profile parser (harness/profile) on any bytes.
 * `make fuzz` builds it with clang -fsanitize=fuzzer,address,undefined
 * and runs it from the shipped and test profiles as seeds. */
#include "config.h"
#include "harness/profile/profile.h"
#include "lib/error.h"

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
	unsigned n_errors = 0;
	struct profile *p = profile_parse("fuzz.yaml", (const char *)data, size, &n_errors);

	profile_free(p);
	return 0;
}
