/* jansson's hash seed without blocking (jsonseed.h). */
#include "config.h"
#include "lib/jsonseed.h"
#include "lib/timeutil.h"

#include <jansson.h>
#include <stdint.h>
#include <sys/random.h>
#include <unistd.h>

void jsonseed_init(void)
{
	uint32_t seed = 0;

	/* GRND_NONBLOCK: EAGAIN rather than a wait while the CRNG is not ready */
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t)sizeof(seed))
		seed = (uint32_t)mono_ns() ^ ((uint32_t)getpid() << 16);
	json_object_seed(seed ? seed : 1);	/* 0 would ask jansson to read /dev/urandom */
}
