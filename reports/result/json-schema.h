/* A validator for the subset of JSON Schema (draft 2020-12) that
 * reports/result/result-schema.json uses, on jansson trees, so a result is checked
 * against the very schema the project ships, without Python. A schema that
 * uses a keyword this validator does not implement is refused when it is
 * loaded: the validator can never silently check less than the schema says.
 *
 * Keywords: type, const, enum, required, properties, additionalProperties,
 * propertyNames, items, prefixItems, minItems, maxItems, minLength, maxLength,
 * pattern (POSIX extended regular expressions), minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum, $ref (local "#/..." pointers), allOf, anyOf,
 * if/then/else; $schema, $id, $defs, $comment, title, description, default
 * and examples are annotations. */
#ifndef STARVE_JSON_SCHEMA_H
#define STARVE_JSON_SCHEMA_H

#include <jansson.h>
#include <stddef.h>

struct jschema;

/* Parse TEXT as a schema, check every keyword and $ref in it, compile its
 * patterns. NULL with WHY filled when it is not a schema we can apply. */
struct jschema *jschema_new(const char *text, char *why, size_t why_len);
void jschema_free(struct jschema *s);

/* 0 when DOC is valid against S; else -1 and WHY names the place and the
 * problem of the first violation found, document order:
 * "runs[2].loads[0].metrics.cpu_share: expected a number, got a string". */
int jschema_validate(const struct jschema *s, const json_t *doc, char *why, size_t why_len);

#endif
