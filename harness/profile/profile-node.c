/* Helpers over libyaml document nodes for the profile parser (see
 * profile-node.h): positions, kinds, scalars, and the key checks libyaml
 * does not do itself (it accepts duplicate keys silently). */
#include "config.h"
#include "harness/profile/profile-node.h"
#include "lib/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message stays one line whatever the profile held (a knob name with a
 * newline): control bytes become '?'. */
static void pn_one_line(char *text)
{
	for (unsigned char *c = (unsigned char *)text; *c; c++)
		if (*c < ' ' || *c == 0x7f)
			*c = '?';
}

__attribute__((format(printf, 4, 0)))
static int pn_vreport(struct pctx *c, int line, int col, const char *fmt, va_list ap)
{
	char text[1024];
	struct pmsg *m;

	c->n_errors++;
	vsnprintf(text, sizeof(text), fmt, ap);
	pn_one_line(text);
	if (c->n_msgs == c->cap_msgs) {
		size_t cap = c->cap_msgs ? 2 * c->cap_msgs : 16;
		struct pmsg *grown = realloc(c->msgs, cap * sizeof(*grown));

		if (!grown)	/* print now, unsorted, rather than lose it */
			return error_at(c->file, line, col, "%s", text);
		c->msgs = grown;
		c->cap_msgs = cap;
	}
	m = &c->msgs[c->n_msgs];
	m->text = strdup(text);
	if (!m->text)
		return error_at(c->file, line, col, "%s", text);
	m->line = line;
	m->col = col;
	m->seq = c->n_msgs++;
	return -1;
}

int pn_report(struct pctx *c, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pn_vreport(c, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* File order; equal positions keep the order found (the index breaks ties). */
static int pn_msg_order(const void *pa, const void *pb)
{
	const struct pmsg *a = pa, *b = pb;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

void pn_flush(struct pctx *c)
{
	/* qsort, not an insertion sort: one bad list of 500k entries made
	 * 500k messages */
	if (c->n_msgs)	/* msgs is NULL without any */
		qsort(c->msgs, c->n_msgs, sizeof(*c->msgs), pn_msg_order);
	for (size_t i = 0; i < c->n_msgs; i++) {
		if (i < PN_MAX_PRINTED)
			error_at(c->file, c->msgs[i].line, c->msgs[i].col, "%s", c->msgs[i].text);
		else if (i == PN_MAX_PRINTED)
			error_at(c->file, c->msgs[i].line, c->msgs[i].col,
				 "... and %zu more errors, not shown", c->n_msgs - i);
		free(c->msgs[i].text);
	}
	free(c->msgs);
	c->msgs = NULL;
	c->n_msgs = c->cap_msgs = 0;
}

__attribute__((format(printf, 4, 0)))
static int pn_verror(struct pctx *c, const yaml_node_t *node, size_t offset,
		     const char *fmt, va_list ap)
{
	return pn_vreport(c, (int)node->start_mark.line + 1,
			  (int)(node->start_mark.column + offset) + 1, fmt, ap);
}

int pn_error(struct pctx *c, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pn_verror(c, node, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int pn_error_in(struct pctx *c, const yaml_node_t *node, size_t offset, const char *fmt, ...)
{
	va_list ap;

	/* Only a plain or quoted scalar on one line maps offsets to columns;
	 * escapes in double quotes would shift it, so those point at the start. */
	if (node->type != YAML_SCALAR_NODE || node->end_mark.line != node->start_mark.line)
		offset = 0;
	else if (node->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE)
		offset += 1;
	else if (node->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
		offset = memchr(node->data.scalar.value, '\\', node->data.scalar.length) ? 0 : offset + 1;
	else if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		offset = 0;
	va_start(ap, fmt);
	pn_verror(c, node, offset, fmt, ap);
	va_end(ap);
	return -1;
}

yaml_node_t *pn_node(const struct pctx *c, int id)
{
	return yaml_document_get_node(c->doc, id);
}

struct source_pos pn_pos(const struct pctx *c, const yaml_node_t *node)
{
	struct source_pos pos = { c->file, (int)node->start_mark.line + 1,
				  (int)node->start_mark.column + 1 };
	return pos;
}

const char *pn_kind_name(const yaml_node_t *node)
{
	switch (node->type) {
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "a scalar";
	}
}

bool pn_is_null(const yaml_node_t *node)
{
	const char *v;

	if (node->type != YAML_SCALAR_NODE || node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	v = (const char *)node->data.scalar.value;
	return !*v || !strcmp(v, "~") || !strcmp(v, "null");
}

int pn_want(struct pctx *c, const yaml_node_t *node, yaml_node_type_t type, const char *key)
{
	static const char *const names[] = {
		[YAML_SCALAR_NODE] = "a scalar", [YAML_SEQUENCE_NODE] = "a list",
		[YAML_MAPPING_NODE] = "a mapping",
	};

	if (node->type == type && !pn_is_null(node))
		return 0;
	if (pn_is_null(node))
		return pn_error(c, node, "'%s' has no value (expected %s)", key, names[type]);
	return pn_error(c, node, "'%s' must be %s, not %s", key, names[type], pn_kind_name(node));
}

const char *pn_scalar(struct pctx *c, const yaml_node_t *node, const char *key)
{
	if (pn_want(c, node, YAML_SCALAR_NODE, key))
		return NULL;
	return (const char *)node->data.scalar.value;
}

char *pn_strdup(struct pctx *c, const yaml_node_t *node, const char *key)
{
	const char *text = pn_scalar(c, node, key);
	char *copy;

	if (!text)
		return NULL;
	copy = strdup(text);
	if (!copy)
		pn_error(c, node, "out of memory");
	return copy;
}

const char *pn_key(const struct pctx *c, const yaml_node_pair_t *pair)
{
	const yaml_node_t *k = pn_node(c, pair->key);

	return k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : NULL;
}

static void pn_unknown_key(struct pctx *c, const yaml_node_t *key_node, const char *key,
			   const char *const *known, size_t n_known, const char *where)
{
	const char *hint = opt_suggest(key, known, n_known);
	char list[512];
	size_t used = 0;

	if (hint) {
		pn_error(c, key_node, "unknown key '%s' in %s (did you mean '%s'?)", key, where, hint);
		return;
	}
	list[0] = '\0';
	for (size_t i = 0; i < n_known && used + 1 < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
					 known[i]);
	pn_error(c, key_node, "unknown key '%s' in %s (known keys: %s)", key, where, list);
}

static bool pn_known(const char *key, const char *const *known, size_t n_known)
{
	for (size_t i = 0; i < n_known; i++)
		if (!strcmp(key, known[i]))
			return true;
	return false;
}

/* The earlier pair of MAP with PAIR's key, or NULL (also for non-scalar keys). */
static const yaml_node_pair_t *pn_earlier(const struct pctx *c, const yaml_node_t *map,
					  const yaml_node_pair_t *pair)
{
	const char *key = pn_key(c, pair);

	for (const yaml_node_pair_t *prev = map->data.mapping.pairs.start; key && prev < pair;
	     prev++) {
		const char *pk = pn_key(c, prev);

		if (pk && !strcmp(pk, key))
			return prev;
	}
	return NULL;
}

unsigned pn_check_keys(struct pctx *c, const yaml_node_t *map, const char *const *known,
		       size_t n_known, const char *where)
{
	unsigned before = c->n_errors;

	for (const yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const yaml_node_t *kn = pn_node(c, pair->key);
		const yaml_node_pair_t *prev = pn_earlier(c, map, pair);
		const char *key = pn_key(c, pair);

		if (!key)
			pn_error(c, kn, "a key in %s must be a scalar, not %s", where, pn_kind_name(kn));
		else if (prev)
			pn_error(c, kn, "duplicate key '%s' (first given at line %d); keep one", key,
				 (int)pn_node(c, prev->key)->start_mark.line + 1);
		else if (known && !pn_known(key, known, n_known))
			pn_unknown_key(c, kn, key, known, n_known, where);
	}
	return c->n_errors - before;
}

bool pn_is_first(const struct pctx *c, const yaml_node_t *map, const yaml_node_pair_t *pair)
{
	return pn_key(c, pair) && !pn_earlier(c, map, pair);
}

yaml_node_t *pn_get(const struct pctx *c, const yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const char *k = pn_key(c, pair);

		if (k && !strcmp(k, key))
			return pn_node(c, pair->value);
	}
	return NULL;
}

yaml_node_t *pn_require(struct pctx *c, const yaml_node_t *map, const char *key)
{
	yaml_node_t *v = pn_get(c, map, key);

	if (!v)
		pn_error(c, map, "missing required key '%s'", key);
	return v;
}

int pn_opt(struct pctx *c, const yaml_node_t *node, const struct opt_spec *spec,
	   union opt_value *out)
{
	const char *text = pn_scalar(c, node, spec->name);
	char why[256];

	if (!text)
		return -1;
	if (opt_parse(spec, text, out, why, sizeof(why)))
		return pn_error(c, node, "%s", why);
	return 0;
}

int pn_unknown_listed(struct pctx *c, const yaml_node_t *node, const char *what,
		      const char *name, const char *hint, const char *list)
{
	if (hint)
		return pn_error(c, node, "unknown %s '%s' (did you mean '%s'?)", what, name, hint);
	return pn_error(c, node, "unknown %s '%s' (see 'starve list' for the %s)", what, name,
			list);
}

int pn_check_name(struct pctx *c, const yaml_node_t *node, const char *name, size_t max,
		  const char *what)
{
	size_t len = strlen(name), bad = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-");

	if (len && len <= max && bad == len)
		return 0;
	if (len > max)
		return pn_error(c, node, "%s name '%s' is too long (at most %zu characters)",
				what, name, max);
	return pn_error_in(c, node, bad, "%s name '%s' may only use a-z, 0-9, '_' and '-'",
			   what, name);
}

int pn_check_count(struct pctx *c, const yaml_node_t *seq, size_t max, const char *key,
		   const char *why)
{
	size_t n = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);

	if (n <= max)
		return 0;
	return pn_error(c, seq, "'%s' has %zu entries; starve runs at most %zu (%s)", key, n, max,
			why);
}

void *pn_alloc_entries(struct pctx *c, const yaml_node_t *seq, size_t size)
{
	size_t len = (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
	void *array = calloc(len ? len : 1, size);

	if (!array)
		pn_error(c, seq, "out of memory");
	return array;
}

void pn_each_entry(struct pctx *c, const yaml_node_t *seq, const char *key,
		   const char *what_in_it, void *array, size_t *n, size_t size, pn_entry_fn fn)
{
	for (yaml_node_item_t *it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		const yaml_node_t *entry = pn_node(c, *it);

		if (entry->type != YAML_MAPPING_NODE) {
			pn_error(c, entry, "each entry of '%s' must be a mapping (%s), not %s", key,
				 what_in_it, pn_kind_name(entry));
			continue;
		}
		fn(c, entry, (char *)array + (*n)++ * size);
	}
}
