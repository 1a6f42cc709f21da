/* Base64 (RFC 4648, standard alphabet with '=' padding) decoding, for the
 * files a guest sends back over a serial line (harness/vm/channel.c). */
#ifndef STARVE_BASE64_H
#define STARVE_BASE64_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Decode LEN characters of TEXT (a whole number of 4-character groups, as
 * each line of base64(1) is; padding only at the end) into OUT, which has room
 * for LEN / 4 * 3 bytes. Returns the number of bytes, or -1 when TEXT is not
 * base64. */
ssize_t base64_decode(const char *text, size_t len, uint8_t *out);

#endif
