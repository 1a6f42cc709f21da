/* SHA-256 (FIPS 180-4), for naming a kernel image in result.json and checking
 * the files a guest sends back (harness/vm/). Streaming: init, update any
 * number of times, final. */
#ifndef STARVE_SHA256_H
#define STARVE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_HEX_LEN 65	/* 64 hex digits and the NUL */

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;		/* message length so far */
	uint8_t block[64];	/* the unprocessed tail, bytes % 64 of it used */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* The digest as 64 lowercase hex digits in HEX. S is spent afterwards. */
void sha256_final_hex(struct sha256 *s, char hex[SHA256_HEX_LEN]);

/* The digest of the file at PATH into HEX; -1 with errno set when it
 * cannot be read. */
int sha256_file(const char *path, char hex[SHA256_HEX_LEN]);

#endif
