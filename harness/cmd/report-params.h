/* The options that say where a report comes from (struct report_params,
 * reports/format/report-params.h), declared once for every command that writes
 * reports: a command's argument struct holds a struct report_params, and
 * CMD_REPORT_PARAMS(type, member) are its rows (perf's parse-options shares
 * common options the same way). Check them with kcidb_params_check() before
 * anything runs. */
#ifndef STARVE_CMD_REPORT_PARAMS_H
#define STARVE_CMD_REPORT_PARAMS_H

#include "harness/cmd/cmd.h"
#include "reports/formats.h"

#define CMD_REPORT_PARAMS(type, member)                                                   \
	CMD_STRING("kcidb-origin", "NAME", type, member.kcidb_origin,                     \
		   "the CI system KCIDB objects come from ([a-z0-9_]+; default starve)"),  \
	CMD_STRING("kcidb-build-id", "ID", type, member.kcidb_build_id,                   \
		   "the KCIDB build the kernel came from (ORIGIN:ID; default: a checkout " \
		   "and build stub for the running kernel)")

#endif
