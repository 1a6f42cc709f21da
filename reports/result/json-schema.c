/* JSON Schema subset validation (json-schema.h). Loading walks the schema
 * once against the keyword table (unknown keywords, $refs that lead
 * nowhere, patterns that do not compile are refused); validating walks the
 * document with the schema beside it, keeping the path to the current value
 * so the first violation can say where it is. */
#include "config.h"
#include "reports/result/json-schema.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JS_MAX_PATTERNS 32
#define JS_PATH_MAX 512
#define JS_MSG_MAX 512
#define JS_MAX_DEPTH 64		/* nested schemas; bounds a $ref that loops */

struct js_pattern {
	const json_t *node;	/* the pattern string in the schema tree */
	regex_t re;
};

struct jschema {
	json_t *root;
	struct js_pattern patterns[JS_MAX_PATTERNS];
	size_t n_patterns;
};

/* The first violation. WANTED is set when the value's own type was wrong
 * ("a string"), so the branches of an anyOf can be told as one message. */
struct js_error {
	char path[JS_PATH_MAX];
	char msg[JS_MSG_MAX];
	char wanted[128];
	char got[80];
};

struct js_ctx {
	const struct jschema *s;
	char path[JS_PATH_MAX];
	size_t path_len;
	unsigned depth;
	struct js_error err;
};

/* ---- the keyword table ---- */

enum js_arg { JS_ANNOTATION, JS_SUBSCHEMA, JS_SCHEMA_MAP, JS_SCHEMA_LIST, JS_VALUE };

static const struct {
	const char *name;
	enum js_arg arg;
} js_keywords[] = {
	{ "$schema", JS_ANNOTATION }, { "$id", JS_ANNOTATION }, { "$comment", JS_ANNOTATION },
	{ "title", JS_ANNOTATION }, { "description", JS_ANNOTATION },
	{ "default", JS_ANNOTATION }, { "examples", JS_ANNOTATION },
	{ "$defs", JS_SCHEMA_MAP }, { "properties", JS_SCHEMA_MAP },
	{ "additionalProperties", JS_SUBSCHEMA }, { "propertyNames", JS_SUBSCHEMA },
	{ "items", JS_SUBSCHEMA }, { "if", JS_SUBSCHEMA }, { "then", JS_SUBSCHEMA },
	{ "else", JS_SUBSCHEMA },
	{ "prefixItems", JS_SCHEMA_LIST }, { "allOf", JS_SCHEMA_LIST }, { "anyOf", JS_SCHEMA_LIST },
	{ "type", JS_VALUE }, { "const", JS_VALUE }, { "enum", JS_VALUE },
	{ "required", JS_VALUE }, { "minItems", JS_VALUE }, { "maxItems", JS_VALUE },
	{ "minLength", JS_VALUE }, { "maxLength", JS_VALUE }, { "pattern", JS_VALUE },
	{ "minimum", JS_VALUE }, { "maximum", JS_VALUE }, { "exclusiveMinimum", JS_VALUE },
	{ "exclusiveMaximum", JS_VALUE }, { "$ref", JS_VALUE },
};

static const char *const js_type_names[] = {
	"object", "array", "string", "number", "integer", "boolean", "null",
};

static int js_keyword(const char *name)
{
	for (size_t i = 0; i < sizeof(js_keywords) / sizeof(js_keywords[0]); i++)
		if (!strcmp(js_keywords[i].name, name))
			return (int)i;
	return -1;
}

/* The schema "#/a/b" points at in ROOT (JSON Pointer, ~0 and ~1 decoded),
 * or NULL (anchors such as "#name" and other documents are not supported). */
static const json_t *js_resolve(const json_t *root, const char *ref)
{
	const json_t *node = root;
	const char *p = ref + 1;
	char seg[256];

	if (ref[0] != '#')
		return NULL;
	while (node && *p == '/') {
		size_t n = 0;

		for (p++; *p && *p != '/' && n + 1 < sizeof(seg); p++)
			seg[n++] = (*p == '~' && (p[1] == '0' || p[1] == '1')) ?
					   (*++p == '0' ? '~' : '/') : *p;
		seg[n] = '\0';
		node = json_object_get(node, seg);
	}
	return node && !*p && (json_is_object(node) || json_is_boolean(node)) ? node : NULL;
}

/* ---- loading: every keyword known, every $ref resolved, patterns compiled ---- */

static int js_load_fail(char *why, size_t len, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int js_load_fail(char *why, size_t len, const char *where, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(why, len, "schema %s: %s", *where ? where : "(top)", msg);
	return -1;
}

static bool js_type_known(const json_t *t)
{
	for (size_t i = 0; json_is_string(t) && i < sizeof(js_type_names) / sizeof(*js_type_names);
	     i++)
		if (!strcmp(json_string_value(t), js_type_names[i]))
			return true;
	return false;
}

static int js_load_pattern(struct jschema *s, const json_t *p, const char *where, char *why,
			   size_t len)
{
	struct js_pattern *slot = &s->patterns[s->n_patterns];

	if (!json_is_string(p))
		return js_load_fail(why, len, where, "\"pattern\" is not a string");
	if (s->n_patterns == JS_MAX_PATTERNS)
		return js_load_fail(why, len, where, "more than %d patterns", JS_MAX_PATTERNS);
	if (regcomp(&slot->re, json_string_value(p), REG_EXTENDED | REG_NOSUB) != 0)
		return js_load_fail(why, len, where, "pattern '%s' is not a POSIX extended "
				    "regular expression", json_string_value(p));
	slot->node = p;
	s->n_patterns++;
	return 0;
}

/* The argument of a value keyword has the shape this validator expects. */
static int js_load_value(struct jschema *s, const char *key, const json_t *arg,
			 const char *where, char *why, size_t len)
{
	size_t i;
	const json_t *t;

	if (!strcmp(key, "pattern"))
		return js_load_pattern(s, arg, where, why, len);
	if (!strcmp(key, "$ref"))
		return json_is_string(arg) && js_resolve(s->root, json_string_value(arg)) ? 0 :
		       js_load_fail(why, len, where, "$ref does not lead to a schema");
	if (!strcmp(key, "type")) {
		if (js_type_known(arg))
			return 0;
		json_array_foreach(arg, i, t)
			if (!js_type_known(t))
				break;
		return json_is_array(arg) && i == json_array_size(arg) ? 0 :
		       js_load_fail(why, len, where, "unknown \"type\"");
	}
	if (!strcmp(key, "required")) {
		json_array_foreach(arg, i, t)
			if (!json_is_string(t))
				break;
		return json_is_array(arg) && i == json_array_size(arg) ? 0 :
		       js_load_fail(why, len, where, "\"required\" is not a list of names");
	}
	if (!strcmp(key, "enum"))
		return json_is_array(arg) ? 0 : js_load_fail(why, len, where, "\"enum\" is not a list");
	if (!strcmp(key, "const"))
		return 0;
	return json_is_number(arg) ? 0 : js_load_fail(why, len, where, "\"%s\" is not a number",
						      key);
}

static int js_load(struct jschema *s, const json_t *schema, const char *where, unsigned depth,
		   char *why, size_t len);

/* The subschemas of keyword KEY (map or list) at WHERE. */
static int js_load_many(struct jschema *s, const char *key, enum js_arg arg, const json_t *v,
			const char *where, unsigned depth, char *why, size_t len)
{
	char sub[JS_PATH_MAX];
	const char *name;
	const json_t *x;
	size_t i;

	if (arg == JS_SCHEMA_MAP ? !json_is_object(v) : !json_is_array(v))
		return js_load_fail(why, len, where, "\"%s\" is not %s", key,
				    arg == JS_SCHEMA_MAP ? "an object" : "an array");
	if (arg == JS_SCHEMA_MAP) {
		json_object_foreach((json_t *)v, name, x) {
			snprintf(sub, sizeof(sub), "%s/%s/%s", where, key, name);
			if (js_load(s, x, sub, depth + 1, why, len) < 0)
				return -1;
		}
		return 0;
	}
	json_array_foreach(v, i, x) {
		snprintf(sub, sizeof(sub), "%s/%s/%zu", where, key, i);
		if (js_load(s, x, sub, depth + 1, why, len) < 0)
			return -1;
	}
	return 0;
}

static int js_load(struct jschema *s, const json_t *schema, const char *where, unsigned depth,
		   char *why, size_t len)
{
	char sub[JS_PATH_MAX];
	const char *key;
	const json_t *v;

	if (json_is_boolean(schema))
		return 0;
	if (!json_is_object(schema))
		return js_load_fail(why, len, where, "a schema must be an object or a boolean");
	if (depth > JS_MAX_DEPTH)
		return js_load_fail(why, len, where, "nested too deep");
	json_object_foreach((json_t *)schema, key, v) {
		int k = js_keyword(key);
		int ret = 0;

		if (k < 0)
			return js_load_fail(why, len, where, "keyword \"%s\" is not implemented by "
					    "reports/result/json-schema.c", key);
		switch (js_keywords[k].arg) {
		case JS_ANNOTATION:
			break;
		case JS_SUBSCHEMA:
			snprintf(sub, sizeof(sub), "%s/%s", where, key);
			ret = js_load(s, v, sub, depth + 1, why, len);
			break;
		case JS_SCHEMA_MAP:
		case JS_SCHEMA_LIST:
			ret = js_load_many(s, key, js_keywords[k].arg, v, where, depth, why, len);
			break;
		case JS_VALUE:
			ret = js_load_value(s, key, v, where, why, len);
			break;
		}
		if (ret < 0)
			return -1;
	}
	return 0;
}

struct jschema *jschema_new(const char *text, char *why, size_t why_len)
{
	struct jschema *s = calloc(1, sizeof(*s));
	json_error_t jerr;

	if (!s) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	s->root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!s->root) {
		snprintf(why, why_len, "schema %d:%d: invalid JSON: %s", jerr.line, jerr.column,
			 jerr.text);
	} else if (js_load(s, s->root, "#", 0, why, why_len) == 0) {
		return s;
	}
	jschema_free(s);
	return NULL;
}

void jschema_free(struct jschema *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_patterns; i++)
		regfree(&s->patterns[i].re);
	json_decref(s->root);
	free(s);
}

/* ---- validating: the path and the messages ---- */

/* Append KEY to the path: ".name", or ["odd key"] when it is no identifier.
 * Returns the length to go back to. */
static size_t js_push_key(struct js_ctx *c, const char *key)
{
	size_t old = c->path_len, room = sizeof(c->path) - old;
	bool ident = (*key >= 'a' && *key <= 'z') || (*key >= 'A' && *key <= 'Z') || *key == '_';
	int n;

	for (const char *p = key; ident && *p; p++)
		ident = *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9');
	if (ident)
		n = snprintf(c->path + old, room, "%s%s", old ? "." : "", key);
	else
		n = snprintf(c->path + old, room, "[\"%s\"]", key);
	c->path_len = n > 0 && (size_t)n < room ? old + (size_t)n : old;
	c->path[c->path_len] = '\0';
	return old;
}

static size_t js_push_index(struct js_ctx *c, size_t i)
{
	size_t old = c->path_len, room = sizeof(c->path) - old;
	int n = snprintf(c->path + old, room, "[%zu]", i);

	c->path_len = n > 0 && (size_t)n < room ? old + (size_t)n : old;
	c->path[c->path_len] = '\0';
	return old;
}

static void js_pop(struct js_ctx *c, size_t len)
{
	c->path_len = len;
	c->path[len] = '\0';
}

static int js_fail(struct js_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int js_fail(struct js_ctx *c, const char *fmt, ...)
{
	va_list ap;

	snprintf(c->err.path, sizeof(c->err.path), "%s", c->path);
	va_start(ap, fmt);
	vsnprintf(c->err.msg, sizeof(c->err.msg), fmt, ap);
	va_end(ap);
	c->err.wanted[0] = c->err.got[0] = '\0';
	return -1;
}

/* Append to BUF (SIZE bytes, a string already), cutting what does not fit. */
static void js_append(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void js_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	if (vsnprintf(buf + used, size - used, fmt, ap) < 0)
		buf[used] = '\0';
	va_end(ap);
}

/* V as compact JSON for a message, cut at about 60 characters. */
static const char *js_text(const json_t *v, char *buf, size_t len)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	snprintf(buf, len, "%.60s%s", s ? s : "?", s && strlen(s) > 60 ? "..." : "");
	free(s);
	return buf;
}

static bool js_is_integer(const json_t *v)
{
	double d = json_number_value(v);

	return json_is_integer(v) || (json_is_real(v) && isfinite(d) && d == floor(d));
}

static bool js_has_type(const json_t *v, const char *type)
{
	if (!strcmp(type, "integer"))
		return js_is_integer(v);
	if (!strcmp(type, "number"))
		return json_is_number(v);
	if (!strcmp(type, "boolean"))
		return json_is_boolean(v);
	return !strcmp(type, "object") ? json_is_object(v) : !strcmp(type, "array") ?
	       json_is_array(v) : !strcmp(type, "string") ? json_is_string(v) : json_is_null(v);
}

/* "a string", "an object"... for TYPE (one of js_type_names). */
static const char *js_a(const char *type)
{
	return !strcmp(type, "null") ? "" : strchr("aeiou", *type) ? "an " : "a ";
}

static const char *js_type_of(const json_t *v)
{
	static const char *const kinds[] = { "object", "array", "string", "integer", "number",
					     "boolean", "boolean", "null" };
	int t = json_typeof(v);

	return t >= 0 && t < 8 ? (t == JSON_INTEGER ? "number" : kinds[t]) : "?";
}

/* The value's type is none of TYPES (a name or a list of names). */
static int js_check_type(struct js_ctx *c, const json_t *types, const json_t *v)
{
	char wanted[sizeof(c->err.wanted)] = "", one[sizeof(c->err.got)];
	const json_t *t;
	size_t i;

	if (json_is_string(types) ? js_has_type(v, json_string_value(types)) : false)
		return 0;
	json_array_foreach(types, i, t)
		if (js_has_type(v, json_string_value(t)))
			return 0;
	for (i = 0; i < (json_is_array(types) ? json_array_size(types) : 1); i++) {
		const char *name = json_string_value(json_is_array(types) ?
						     json_array_get(types, i) : types);

		js_append(wanted, sizeof(wanted), "%s%s%s", i ? " or " : "", js_a(name), name);
	}
	if (json_is_number(v))
		js_text(v, one, sizeof(one));
	else
		snprintf(one, sizeof(one), "%s%s", js_a(js_type_of(v)), js_type_of(v));
	js_fail(c, "expected %s, got %s", wanted, one);
	memcpy(c->err.wanted, wanted, sizeof(wanted));
	memcpy(c->err.got, one, sizeof(one));
	return -1;
}

/* Numbers equal by value (1 and 1.0 are the same number in JSON Schema). */
static bool js_equal(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal((json_t *)a, (json_t *)b);
}

static int js_check_enum(struct js_ctx *c, const json_t *list, const json_t *v)
{
	char all[256] = "", one[80];
	const json_t *x;
	size_t i;

	json_array_foreach(list, i, x) {
		if (js_equal(x, v))
			return 0;
		js_append(all, sizeof(all), "%s%s", i ? ", " : "", js_text(x, one, sizeof(one)));
	}
	return js_fail(c, "expected one of %s, got %s", all, js_text(v, one, sizeof(one)));
}

/* Numbers: the bound keywords present in SCHEMA. */
static int js_check_number(struct js_ctx *c, const json_t *schema, const json_t *v)
{
	static const struct {
		const char *key, *op;
		int sign;	/* the failing comparison: v < bound (-1), v <= bound (0)... */
		bool strict;
	} bounds[] = {
		{ "minimum", ">=", -1, true }, { "exclusiveMinimum", ">", -1, false },
		{ "maximum", "<=", 1, true }, { "exclusiveMaximum", "<", 1, false },
	};
	double x = json_number_value(v);
	char got[80];

	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		const json_t *b = json_object_get(schema, bounds[i].key);
		double d = json_number_value(b);
		bool bad;

		if (!b)
			continue;
		bad = bounds[i].sign < 0 ? (bounds[i].strict ? x < d : x <= d) :
					    (bounds[i].strict ? x > d : x >= d);
		if (bad)
			return js_fail(c, "expected a number %s %g, got %s", bounds[i].op, d,
				       js_text(v, got, sizeof(got)));
	}
	return 0;
}

/* Characters, not bytes: UTF-8 continuation bytes do not count. */
static size_t js_utf8_length(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static const regex_t *js_pattern_of(const struct jschema *s, const json_t *node)
{
	for (size_t i = 0; i < s->n_patterns; i++)
		if (s->patterns[i].node == node)
			return &s->patterns[i].re;
	return NULL;
}

static int js_check_string(struct js_ctx *c, const json_t *schema, const json_t *v)
{
	const json_t *min = json_object_get(schema, "minLength");
	const json_t *max = json_object_get(schema, "maxLength");
	const json_t *pattern = json_object_get(schema, "pattern");
	size_t n = js_utf8_length(json_string_value(v));
	char got[80];

	if (min && (double)n < json_number_value(min))
		return json_number_value(min) == 1 ? js_fail(c, "expected a non-empty string") :
		       js_fail(c, "expected at least %g characters, got %zu",
			       json_number_value(min), n);
	if (max && (double)n > json_number_value(max))
		return js_fail(c, "expected at most %g characters, got %zu",
			       json_number_value(max), n);
	if (pattern && regexec(js_pattern_of(c->s, pattern), json_string_value(v), 0, NULL, 0))
		return js_fail(c, "%s does not match the pattern %s", js_text(v, got, sizeof(got)),
			       json_string_value(pattern));
	return 0;
}

static int js_check(struct js_ctx *c, const json_t *schema, const json_t *v);

/* Check V, a member or an item, against SUB; the path was made one step
 * longer for it and goes back to BACK after. */
static int js_check_child(struct js_ctx *c, size_t back, const json_t *sub, const json_t *v)
{
	int ret = js_check(c, sub, v);

	js_pop(c, back);
	return ret;
}

/* KEY of an object against propertyNames: the key is checked as a string. */
static int js_check_key(struct js_ctx *c, const json_t *names, const char *key)
{
	json_t *k = json_string(key);
	int ret;

	if (!k)
		return js_fail(c, "out of memory");
	ret = js_check(c, names, k);
	json_decref(k);
	if (ret < 0) {
		char msg[JS_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", c->err.msg);
		js_fail(c, "key \"%s\": %s", key, msg);
	}
	return ret;
}

static int js_check_object(struct js_ctx *c, const json_t *schema, const json_t *v)
{
	const json_t *props = json_object_get(schema, "properties");
	const json_t *extra = json_object_get(schema, "additionalProperties");
	const json_t *names = json_object_get(schema, "propertyNames"), *x;
	const char *key;
	size_t i;

	json_array_foreach(json_object_get(schema, "required"), i, x)
		if (!json_object_get(v, json_string_value(x)))
			return js_fail(c, "missing required key \"%s\"", json_string_value(x));
	json_object_foreach((json_t *)v, key, x) {
		const json_t *sub = json_object_get(props, key);

		if (names && js_check_key(c, names, key) < 0)
			return -1;
		if (!sub && json_is_false(extra))
			return js_fail(c, "unknown key \"%s\"", key);
		if (!sub && !(sub = extra))
			continue;
		if (js_check_child(c, js_push_key(c, key), sub, x) < 0)
			return -1;
	}
	return 0;
}

static int js_check_array(struct js_ctx *c, const json_t *schema, const json_t *v)
{
	const json_t *prefix = json_object_get(schema, "prefixItems");
	const json_t *items = json_object_get(schema, "items");
	const json_t *min = json_object_get(schema, "minItems");
	const json_t *max = json_object_get(schema, "maxItems"), *x;
	size_t n = json_array_size(v), i;

	if (min && (double)n < json_number_value(min))
		return js_fail(c, "expected at least %g item%s, got %zu", json_number_value(min),
			       json_number_value(min) == 1 ? "" : "s", n);
	if (max && (double)n > json_number_value(max))
		return js_fail(c, "expected at most %g item%s, got %zu", json_number_value(max),
			       json_number_value(max) == 1 ? "" : "s", n);
	json_array_foreach(v, i, x) {
		const json_t *sub = i < json_array_size(prefix) ? json_array_get(prefix, i) : items;

		if (sub && js_check_child(c, js_push_index(c, i), sub, x) < 0)
			return -1;
	}
	return 0;
}

/* anyOf: when every branch failed because of the value's own type, say so
 * once ("expected a string or null, got a number"); else the failure of the
 * first branch whose type fitted, which is the one the author meant. */
static int js_check_any(struct js_ctx *c, const json_t *list, const json_t *v)
{
	char wanted[sizeof(c->err.wanted)] = "", got[sizeof(c->err.got)] = "";
	struct js_error meant;
	bool have_meant = false;
	const json_t *sub;
	size_t i;

	json_array_foreach(list, i, sub) {
		if (js_check(c, sub, v) == 0)
			return 0;
		if (c->err.wanted[0] && !strcmp(c->err.path, c->path)) {
			js_append(wanted, sizeof(wanted), "%s%s", *wanted ? " or " : "", c->err.wanted);
			memcpy(got, c->err.got, sizeof(got));
		} else if (!have_meant) {
			meant = c->err;
			have_meant = true;
		}
	}
	if (have_meant) {
		c->err = meant;
		return -1;
	}
	js_fail(c, "expected %s, got %s", wanted, got);
	memcpy(c->err.wanted, wanted, sizeof(wanted));
	memcpy(c->err.got, got, sizeof(got));
	return -1;
}

/* allOf, anyOf and if/then/else of SCHEMA. */
static int js_check_combined(struct js_ctx *c, const json_t *schema, const json_t *v)
{
	const json_t *all = json_object_get(schema, "allOf"), *any = json_object_get(schema, "anyOf");
	const json_t *cond = json_object_get(schema, "if"), *sub;
	size_t i;

	json_array_foreach(all, i, sub)
		if (js_check(c, sub, v) < 0)
			return -1;
	if (any && js_check_any(c, any, v) < 0)
		return -1;
	if (cond) {
		struct js_error keep = c->err;	/* "if" failing is no violation */
		bool holds = js_check(c, cond, v) == 0;

		c->err = keep;
		sub = json_object_get(schema, holds ? "then" : "else");
		if (sub && js_check(c, sub, v) < 0)
			return -1;
	}
	return 0;
}

static int js_check(struct js_ctx *c, const json_t *schema, const json_t *v)
{
	const json_t *ref = json_object_get(schema, "$ref"), *x;
	int ret = 0;

	if (json_is_boolean(schema))
		return json_is_true(schema) ? 0 : js_fail(c, "no value is allowed here");
	if (++c->depth > JS_MAX_DEPTH) {
		c->depth--;
		return js_fail(c, "the schema nests too deep here (a $ref loop?)");
	}
	if (ref)
		ret = js_check(c, js_resolve(c->s->root, json_string_value(ref)), v);
	if (ret == 0 && (x = json_object_get(schema, "type")))
		ret = js_check_type(c, x, v);
	if (ret == 0 && (x = json_object_get(schema, "const")) && !js_equal(x, v)) {
		char want[80], got[80];

		ret = js_fail(c, "expected %s, got %s", js_text(x, want, sizeof(want)),
			      js_text(v, got, sizeof(got)));
	}
	if (ret == 0 && (x = json_object_get(schema, "enum")))
		ret = js_check_enum(c, x, v);
	if (ret == 0 && json_is_number(v))
		ret = js_check_number(c, schema, v);
	if (ret == 0 && json_is_string(v))
		ret = js_check_string(c, schema, v);
	if (ret == 0 && json_is_object(v))
		ret = js_check_object(c, schema, v);
	if (ret == 0 && json_is_array(v))
		ret = js_check_array(c, schema, v);
	if (ret == 0)
		ret = js_check_combined(c, schema, v);
	c->depth--;
	return ret;
}

int jschema_validate(const struct jschema *s, const json_t *doc, char *why, size_t why_len)
{
	struct js_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	c->s = s;
	if (js_check(c, s->root, doc) == 0) {
		free(c);
		return 0;
	}
	if (c->err.path[0])
		snprintf(why, why_len, "%s: %s", c->err.path, c->err.msg);
	else
		snprintf(why, why_len, "%s", c->err.msg);
	free(c);
	return -1;
}
