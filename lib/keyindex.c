/* The key index (keyindex.h): linear probing in a power-of-two table. */
#include "config.h"
#include "lib/keyindex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct keyindex_slot {
	uint64_t hash;
	char *key;
	size_t len;
	long id;
};

static uint64_t keyindex_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* The slot holding KEY, or the empty one where it would go. */
static struct keyindex_slot *keyindex_slot(const struct keyindex *ix, uint64_t hash,
					   const void *key, size_t len)
{
	size_t i = (size_t)hash & (ix->cap - 1);

	for (;; i = (i + 1) & (ix->cap - 1)) {
		struct keyindex_slot *s = &ix->slots[i];

		if (s->id < 0 || (s->hash == hash && s->len == len && !memcmp(s->key, key, len)))
			return s;
	}
}

static int keyindex_grow(struct keyindex *ix)
{
	size_t cap = ix->cap ? 2 * ix->cap : 64;
	struct keyindex old = *ix;

	ix->slots = malloc(cap * sizeof(*ix->slots));
	if (!ix->slots) {
		*ix = old;
		return -1;
	}
	ix->cap = cap;
	for (size_t i = 0; i < cap; i++)
		ix->slots[i].id = -1;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].id >= 0)
			*keyindex_slot(ix, old.slots[i].hash, old.slots[i].key,
				       old.slots[i].len) = old.slots[i];
	free(old.slots);
	return 0;
}

long keyindex_find(const struct keyindex *ix, const void *key, size_t len)
{
	if (!ix->cap)
		return -1;
	return keyindex_slot(ix, keyindex_hash(key, len), key, len)->id;
}

long keyindex_add(struct keyindex *ix, const void *key, size_t len)
{
	uint64_t hash = keyindex_hash(key, len);
	struct keyindex_slot *s;
	long id = keyindex_find(ix, key, len);

	if (id >= 0)
		return id;
	if (2 * (ix->n + 1) > ix->cap && keyindex_grow(ix) < 0)
		return -1;
	s = keyindex_slot(ix, hash, key, len);
	s->key = malloc(len ? len : 1);
	if (!s->key)
		return -1;
	memcpy(s->key, key, len);
	s->hash = hash;
	s->len = len;
	s->id = (long)ix->n++;
	return s->id;
}

void keyindex_free(struct keyindex *ix)
{
	for (size_t i = 0; i < ix->cap; i++)
		if (ix->slots[i].id >= 0)
			free(ix->slots[i].key);
	free(ix->slots);
	ix->slots = NULL;
	ix->cap = ix->n = 0;
}
