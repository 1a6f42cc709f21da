/* libFuzzer target: the profile parser (harness/profile) on any bytes.
 * `make fuzz` builds it with clang -fsanitize=fuzzer,address,undefined
 * and runs it from the shipped and test profiles as seeds. */
#include "config.h"
#include "harness/profile/profile.h"
#include "tests/fuzz/fuzz.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned n_errors = 0;
	struct profile *p = profile_parse("fuzz.yaml", (const char *)data, size, &n_errors);

	profile_free(p);
	return 0;
}
