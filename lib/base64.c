/* Base64 decoding (base64.h): four characters, six bits each, make three
 * bytes; "=" pads the last group. Strict: anything else is an error, so a
 * garbled line is noticed rather than decoded into wrong bytes. */
#include "config.h"
#include "base64.h"

static int base64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

ssize_t base64_decode(const char *text, size_t len, uint8_t *out)
{
	size_t n = 0;

	if (len % 4)
		return -1;
	for (size_t i = 0; i < len; i += 4) {
		const char *g = text + i;
		int v[4], pad = 0;
		uint32_t bits = 0;

		for (int j = 0; j < 4; j++) {
			v[j] = base64_value(g[j]);
			if (g[j] == '=' && j >= 2 && i + 4 == len) {
				v[j] = 0;
				pad++;
			} else if (v[j] < 0 || pad) {
				return -1;	/* not base64, or data after '=' */
			}
			bits = bits << 6 | (uint32_t)v[j];
		}
		out[n++] = (uint8_t)(bits >> 16);
		if (pad < 2)
			out[n++] = (uint8_t)(bits >> 8);
		if (pad < 1)
			out[n++] = (uint8_t)bits;
	}
	return (ssize_t)n;
}
