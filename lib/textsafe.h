/* Text from a result file or a process (a setting's name, a task's comm, a
 * reason) on its way to a terminal or a summary: control characters become
 * '?', so an ESC in a name can neither recolour the screen nor move the
 * cursor or hide a line. The layout's own newlines and tabs pass. */
#ifndef STARVE_TEXTSAFE_H
#define STARVE_TEXTSAFE_H

#include <stddef.h>
#include <stdio.h>

/* A stream writing into F through that filter: C0 but '\n' and '\t', DEL,
 * and C1 (as UTF-8) become one '?' per byte (so widths measured on the text still hold); fclose()
 * it when done, which leaves F open. NULL when memory runs out. */
FILE *textsafe_open(FILE *f);

#endif
