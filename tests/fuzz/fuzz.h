/* What both libFuzzer targets share: the entry points' prototypes, and an
 * initialisation that silences error() (every malformed input prints). */
#ifndef STARVE_FUZZ_H
#define STARVE_FUZZ_H

#include "lib/error.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_quiet(const char *msg, void *data)
{
	(void)msg;
	(void)data;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	error_set_sink(fuzz_quiet, NULL);
	return 0;
}

#endif
