/* What a report needs beyond the result: where it comes from, as the
 * command line says (--kcidb-origin, --kcidb-build-id). Apart from the
 * format table (formats.h) so a format's writer can take it without
 * including the table that lists that writer. */
#ifndef STARVE_REPORT_PARAMS_H
#define STARVE_REPORT_PARAMS_H

/* Every field may be NULL (the format's default); a NULL struct means all
 * defaults. */
struct report_params {
	const char *kcidb_origin;	/* the submitting CI system; NULL: "starve" */
	const char *kcidb_build_id;	/* the tested build; NULL: a stub for the kernel */
};

#endif
