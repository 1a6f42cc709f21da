/* Seeding jansson's hash tables without waiting for the kernel's random
 * number generator. Left to itself, jansson reads /dev/urandom the first
 * time it builds an object, and since Linux 5.18 that read waits until the
 * CRNG is initialised: 30 s and more in a freshly booted qemu guest, where
 * little entropy arrives. The seed only spreads hash buckets; it guards
 * nothing, so whatever getrandom() has at once (or the clock and the PID)
 * is enough. */
#ifndef STARVE_JSONSEED_H
#define STARVE_JSONSEED_H

/* Call before the first json_t is made (the first call wins in jansson). */
void jsonseed_init(void);

#endif
