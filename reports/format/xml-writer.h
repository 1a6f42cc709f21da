/* A small streaming XML writer for the JUnit report: elements, attributes and
 * text, everything escaped, indented two spaces. The writer never builds a
 * tree; it only remembers the open element names (at most XML_MAX_DEPTH). */
#ifndef STARVE_XML_WRITER_H
#define STARVE_XML_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#define XML_MAX_DEPTH 16

struct xml_writer {
	FILE *f;
	const char *open[XML_MAX_DEPTH];	/* element names: string literals or stable */
	bool has_child[XML_MAX_DEPTH];
	int depth;
	bool in_tag;		/* "<name attr=..." written, ">" not yet */
	bool failed;		/* nesting too deep or an attribute outside a tag */
};

/* Start a document on F with the XML declaration. */
void xml_begin(struct xml_writer *w, FILE *f);
/* Open element NAME (a valid XML name, not escaped: names are ours). */
void xml_open(struct xml_writer *w, const char *name);
/* An attribute of the element just opened; VALUE escaped (NULL: omitted). */
void xml_attr(struct xml_writer *w, const char *name, const char *value);
void xml_attrf(struct xml_writer *w, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Character data inside the current element, escaped. */
void xml_text(struct xml_writer *w, const char *text);
/* Close the innermost open element ("<x/>" when it is empty). */
void xml_close(struct xml_writer *w);
/* Finish: returns -1 when elements are left open, the writer was misused or
 * the stream failed. */
int xml_end(struct xml_writer *w);

/* Write S escaped to F: & < > always, " ' and control characters as
 * character references when ATTR; characters XML 1.0 forbids even as
 * references (other C0 controls) become '?'. */
void xml_escape(FILE *f, const char *s, bool attr);

#endif
