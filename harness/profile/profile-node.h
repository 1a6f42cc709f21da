/* Internal to the profile parser (harness/profile*.c): the parse context and
 * helpers over libyaml document nodes. Every helper reports what it finds
 * wrong at the node's own line and column, counts it, and lets the caller
 * carry on, so one pass over a profile reports every error it holds. */
#ifndef STARVE_PROFILE_NODE_H
#define STARVE_PROFILE_NODE_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "harness/profile/profile.h"
#include "lib/options.h"

/* Errors are collected and printed sorted by position at the end, since the
 * parser visits sections in dependency order, not in file order. */
struct pmsg {
	int line, col;
	size_t seq;	/* the order found */
	char *text;
};

#define PN_MAX_PRINTED 20	/* errors printed; the rest are counted */
#define PN_MAX_KEYS 256		/* keys in one mapping */

struct pctx {
	const char *file;	/* for messages; the profile's own copy */
	yaml_document_t *doc;
	struct profile *p;
	unsigned n_errors;
	struct pmsg *msgs;
	size_t n_msgs, cap_msgs;
};

/* Record an error at LINE:COL (1-based) and count it; -1. */
int pn_report(struct pctx *c, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Print the recorded errors in file order (through error_at), the first
 * PN_MAX_PRINTED of them and a line counting the rest, and forget them. */
void pn_flush(struct pctx *c);

/* Report "file:line:col: message" at NODE (1-based) and count it; -1. */
int pn_error(struct pctx *c, const yaml_node_t *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same, OFFSET characters into NODE's scalar text (quotes allowed for). */
int pn_error_in(struct pctx *c, const yaml_node_t *node, size_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

yaml_node_t *pn_node(const struct pctx *c, int id);
struct source_pos pn_pos(const struct pctx *c, const yaml_node_t *node);
/* "a scalar", "a list", "a mapping". */
const char *pn_kind_name(const yaml_node_t *node);
/* An empty plain scalar, "~" or "null": a key written without a value. */
bool pn_is_null(const yaml_node_t *node);

/* Check NODE is of TYPE, else report "'KEY' must be a list, not a mapping"
 * (or "'KEY' has no value") and return -1. */
int pn_want(struct pctx *c, const yaml_node_t *node, yaml_node_type_t type, const char *key);
/* NODE's text when it is a scalar with a value; NULL after an error. */
const char *pn_scalar(struct pctx *c, const yaml_node_t *node, const char *key);
/* A copy of that text (NULL after an error, or when out of memory). */
char *pn_strdup(struct pctx *c, const yaml_node_t *node, const char *key);
/* The text of a mapping key, or NULL when the key is not a scalar. */
const char *pn_key(const struct pctx *c, const yaml_node_pair_t *pair);

/* Check a mapping's keys: every key a scalar, none twice, and (when KNOWN is
 * not NULL) each one of KNOWN, with a "did you mean" hint; WHERE completes
 * "unknown key 'x' in WHERE". Returns the number of errors reported.
 * Quadratic in the keys: profile.c refuses mappings of more than
 * PN_MAX_KEYS before any section is parsed. */
unsigned pn_check_keys(struct pctx *c, const yaml_node_t *map, const char *const *known,
		       size_t n_known, const char *where);
/* False when an earlier pair of MAP has PAIR's key: that duplicate was
 * reported by pn_check_keys and is not parsed again. */
bool pn_is_first(const struct pctx *c, const yaml_node_t *map, const yaml_node_pair_t *pair);
/* The value of KEY in MAP (its first occurrence), or NULL. */
yaml_node_t *pn_get(const struct pctx *c, const yaml_node_t *map, const char *key);
/* The same, reporting "missing required key 'KEY'" at MAP when absent. */
yaml_node_t *pn_require(struct pctx *c, const yaml_node_t *map, const char *key);

/* Parse the scalar NODE as a value of SPEC (lib/options.h); -1 after an error. */
int pn_opt(struct pctx *c, const yaml_node_t *node, const struct opt_spec *spec,
	   union opt_value *out);

/* Report "unknown WHAT 'NAME'" at NODE for a name `starve list` shows (a
 * metric, a load type), with "did you mean 'HINT'" when HINT is not NULL,
 * else pointing to the list of LIST (e.g. "metrics"); -1. */
int pn_unknown_listed(struct pctx *c, const yaml_node_t *node, const char *what,
		      const char *name, const char *hint, const char *list);

/* Names of loads and settings: 1..MAX of [a-z0-9_-]. -1 after an error. */
int pn_check_name(struct pctx *c, const yaml_node_t *node, const char *name, size_t max,
		  const char *what);

/* Refuse a list SEQ (the value of KEY) of more than MAX entries, WHY saying
 * what bounds it; -1 after the error. */
int pn_check_count(struct pctx *c, const yaml_node_t *seq, size_t max, const char *key,
		   const char *why);
/* An array for the N entries of the list SEQ, SIZE bytes each, zeroed (NULL
 * after an error). */
void *pn_alloc_entries(struct pctx *c, const yaml_node_t *seq, size_t size);
/* Walk the list SEQ (the value of KEY) and call FN on each entry that is a
 * mapping, with its slot in ARRAY; *N counts the slots used and grows before
 * each call, so FN can look at the entries parsed so far. Entries of another
 * kind are reported, with WHAT_IN_IT ("name and knobs") as a hint. */
typedef void (*pn_entry_fn)(struct pctx *c, const yaml_node_t *map, void *slot);
void pn_each_entry(struct pctx *c, const yaml_node_t *seq, const char *key,
		   const char *what_in_it, void *array, size_t *n, size_t size, pn_entry_fn fn);

/* Sections, each in its own file. */
void profile_parse_loads(struct pctx *c, const yaml_node_t *seq);	/* profile-loads.c */
void profile_parse_attach(struct pctx *c, const yaml_node_t *seq);
void profile_parse_expect(struct pctx *c, const yaml_node_t *seq);	/* profile-expect.c */
void profile_parse_compare(struct pctx *c, const yaml_node_t *map);
void profile_parse_cgroups(struct pctx *c, const yaml_node_t *seq, struct setting *s);	/* profile-cgroups.c */
void profile_free_cgroups(struct setting *s);

#endif
