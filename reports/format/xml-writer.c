/* Streaming XML writer (reports/format/xml-writer.h). Everything that is not one of
 * our own element or attribute names goes through xml_escape(), so names and
 * reasons taken from a profile cannot break the document. */
#include "config.h"
#include "reports/format/xml-writer.h"

#include <stdarg.h>

void xml_escape(FILE *f, const char *s, bool attr)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", f); continue;
		case '<': fputs("&lt;", f); continue;
		case '>': fputs("&gt;", f); continue;
		case '"': fputs(attr ? "&quot;" : "\"", f); continue;
		case '\'': fputs(attr ? "&apos;" : "'", f); continue;
		case '\n': case '\t': case '\r':
			/* attribute values are normalized: keep them with references */
			if (attr)
				fprintf(f, "&#%u;", c);
			else
				fputc(c, f);
			continue;
		}
		fputc(c < 0x20 || c == 0x7f ? '?' : c, f);
	}
}

static void xml_indent(struct xml_writer *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* End a pending start tag with ">" before content follows. */
static void xml_finish_tag(struct xml_writer *w)
{
	if (w->in_tag) {
		fputc('>', w->f);
		w->in_tag = false;
	}
}

void xml_begin(struct xml_writer *w, FILE *f)
{
	*w = (struct xml_writer){ .f = f };
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", f);
}

void xml_open(struct xml_writer *w, const char *name)
{
	if (w->depth >= XML_MAX_DEPTH) {
		w->failed = true;
		return;
	}
	xml_finish_tag(w);
	if (w->depth > 0)
		w->has_child[w->depth - 1] = true;
	xml_indent(w);
	fprintf(w->f, "<%s", name);
	w->open[w->depth] = name;
	w->has_child[w->depth] = false;
	w->depth++;
	w->in_tag = true;
}

void xml_attr(struct xml_writer *w, const char *name, const char *value)
{
	if (!w->in_tag) {
		w->failed = true;
		return;
	}
	if (!value)
		return;
	fprintf(w->f, " %s=\"", name);
	xml_escape(w->f, value, true);
	fputc('"', w->f);
}

void xml_attrf(struct xml_writer *w, const char *name, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	xml_attr(w, name, buf);
}

void xml_text(struct xml_writer *w, const char *text)
{
	if (w->depth == 0) {
		w->failed = true;
		return;
	}
	xml_finish_tag(w);
	xml_escape(w->f, text, false);
}

void xml_close(struct xml_writer *w)
{
	if (w->depth == 0) {
		w->failed = true;
		return;
	}
	w->depth--;
	if (w->in_tag) {
		fputs("/>", w->f);
		w->in_tag = false;
		return;
	}
	if (w->has_child[w->depth])
		xml_indent(w);
	fprintf(w->f, "</%s>", w->open[w->depth]);
}

int xml_end(struct xml_writer *w)
{
	fputc('\n', w->f);
	if (w->depth || w->failed || fflush(w->f) == EOF || ferror(w->f))
		return -1;
	return 0;
}
