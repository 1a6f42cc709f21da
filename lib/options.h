/* Option tables (tmux's options-table.c, perf's parse-options): each load type
 * declares its options once, as rows of name, type, unit, range, default and
 * help. The same rows parse YAML keys and `starve load --opt value`, check
 * ranges, fill in defaults, and produce `starve list` and the man page.
 *
 * Values are parsed from text by opt_parse() in every case (YAML scalars,
 * command-line words and the defaults themselves), so a default can never
 * bypass validation. */
#ifndef STARVE_OPTIONS_H
#define STARVE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum opt_type {
	OPT_INT,	/* integer in [min, max] */
	OPT_DOUBLE,	/* real in [min, max] */
	OPT_DURATION,	/* text with a unit, stored as ns; range in ns */
	OPT_BOOL,	/* true/false, yes/no, on/off */
	OPT_STRING,	/* free text (a command line, a path) */
	OPT_ENUM,	/* one of choices[], stored as its index */
};

struct opt_spec {
	const char *name;		/* key in YAML and --name on the command line */
	enum opt_type type;
	const char *unit;		/* shown in help: "ns", "Hz", "%", NULL */
	double min, max;		/* inclusive; ignored for bool, string, enum */
	const char *def;		/* default as text; NULL means required */
	const char *help;
	const char *const *choices;	/* OPT_ENUM: NULL-terminated */
};

union opt_value {
	int64_t i;	/* OPT_INT, OPT_DURATION (ns), OPT_ENUM (index) */
	double d;	/* OPT_DOUBLE */
	bool b;		/* OPT_BOOL */
	char *s;	/* OPT_STRING, owned (free with opt_values_free) */
};

/* Parse TEXT as a value of SPEC. On error returns -1 with a message in why,
 * e.g. "value 0 is out of range for 'run' (1us..10s)". */
int opt_parse(const struct opt_spec *spec, const char *text, union opt_value *out,
	      char *why, size_t why_len);

/* Look up NAME in a table of N rows; NULL when absent. */
const struct opt_spec *opt_find(const struct opt_spec *table, size_t n, const char *name);

/* The closest name in the table to NAME, for "did you mean" hints, or NULL
 * when nothing is close (edit distance > 2, or > a third of the length). */
const char *opt_suggest(const char *name, const char *const *candidates, size_t n);

/* Edit distance (Damerau-Levenshtein, optimal string alignment). */
unsigned edit_distance(const char *a, const char *b);

/* Fill values[i] with the parsed default of row i when set[i] is false.
 * Returns -1 (why filled) when a required option is missing. */
int opt_fill_defaults(const struct opt_spec *table, size_t n, union opt_value *values,
		      bool *set, char *why, size_t why_len);
void opt_values_free(const struct opt_spec *table, size_t n, union opt_value *values);

/* Human text for a value and for a spec's range ("1us..10s", "other|batch"). */
const char *opt_format_value(const struct opt_spec *spec, const union opt_value *v,
			     char *buf, size_t len);
const char *opt_format_range(const struct opt_spec *spec, char *buf, size_t len);
const char *opt_type_name(enum opt_type type);

#endif
