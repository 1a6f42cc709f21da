/* An index from byte-string keys to dense ids (0, 1, 2... in the order keys
 * were first added), for code that groups many records by name: open
 * addressing over FNV-1a, grown at half full, so grouping n records costs
 * n lookups, not n^2 comparisons. Keys are copied in. */
#ifndef STARVE_KEYINDEX_H
#define STARVE_KEYINDEX_H

#include <stddef.h>

struct keyindex {
	struct keyindex_slot *slots;	/* cap of them; id -1 is empty */
	size_t cap, n;
};

/* The id of KEY (LEN bytes), or -1 when absent. */
long keyindex_find(const struct keyindex *ix, const void *key, size_t len);
/* The id of KEY, added with the next id (ix->n) when absent; -1 when
 * memory runs out. */
long keyindex_add(struct keyindex *ix, const void *key, size_t len);
void keyindex_free(struct keyindex *ix);

#endif
