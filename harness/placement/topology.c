/* CPU topology through hwloc (harness/placement/topology.h): cpu specs ("pu:1",
 * "core:0-1", "numa:0", "all") resolved to CPU sets by hwloc's logical
 * indices, and a one-line description of the machine. The topology is
 * loaded once per process and kept: loading it walks sysfs and is slow. */
#include "config.h"
#include "harness/placement/topology.h"
#include "lib/error.h"

#include <hwloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static hwloc_topology_t topo_handle;
static bool topo_loaded;
static char topo_error[160];

/* Load once; a failure is remembered so it is reported the same way each time. */
static hwloc_topology_t topo_get(char *why, size_t why_len)
{
	if (!topo_loaded) {
		topo_loaded = true;
		if (hwloc_topology_init(&topo_handle) < 0) {
			snprintf(topo_error, sizeof(topo_error), "hwloc cannot initialise a topology");
			topo_handle = NULL;
		} else if (hwloc_topology_load(topo_handle) < 0) {
			snprintf(topo_error, sizeof(topo_error), "hwloc cannot load this machine's topology");
			hwloc_topology_destroy(topo_handle);
			topo_handle = NULL;
		}
	}
	if (!topo_handle)
		error_why(why, why_len, "%s", topo_error);
	return topo_handle;
}

static const struct {
	enum cpuspec_kind kind;
	hwloc_obj_type_t type;
	const char *prefix, *one, *many;
} topo_kinds[] = {
	{ CPUSPEC_PU, HWLOC_OBJ_PU, "pu", "PU", "PUs" },
	{ CPUSPEC_CORE, HWLOC_OBJ_CORE, "core", "core", "cores" },
	{ CPUSPEC_NUMA, HWLOC_OBJ_NUMANODE, "numa", "NUMA node", "NUMA nodes" },
};

static void topo_add_bitmap(hwloc_const_bitmap_t bm, cpu_set_t *out)
{
	int i;

	hwloc_bitmap_foreach_begin(i, bm) {
		if (i < CPU_SETSIZE)
			CPU_SET(i, out);
	} hwloc_bitmap_foreach_end();
}

/* "pu:7" or "pu:0-7", as the term was written. */
static void topo_term_text(const struct cpuspec_term *t, const char *prefix, char *buf,
			   size_t len)
{
	if (t->first == t->last)
		snprintf(buf, len, "%s:%u", prefix, t->first);
	else
		snprintf(buf, len, "%s:%u-%u", prefix, t->first, t->last);
}

static int topo_resolve_term(hwloc_topology_t topo, const struct cpuspec_term *t, cpu_set_t *out,
			     char *why, size_t why_len)
{
	char text[48], range[48];
	unsigned n;
	size_t k;

	if (t->kind == CPUSPEC_ALL) {
		topo_add_bitmap(hwloc_topology_get_allowed_cpuset(topo), out);
		return 0;
	}
	for (k = 0; topo_kinds[k].kind != t->kind; k++)
		if (k + 1 == sizeof(topo_kinds) / sizeof(topo_kinds[0]))
			return error_why(why, why_len, "unknown cpu spec kind %d", (int)t->kind);
	n = (unsigned)hwloc_get_nbobjs_by_type(topo, topo_kinds[k].type);
	if (t->last >= n || t->first > t->last) {
		topo_term_text(t, topo_kinds[k].prefix, text, sizeof(text));
		if (n == 0)
			return error_why(why, why_len, "cpu spec '%s': this machine has no %s", text,
					topo_kinds[k].many);
		snprintf(range, sizeof(range), n == 1 ? "%s:0" : "%s:0-%u", topo_kinds[k].prefix,
			 n - 1);
		return error_why(why, why_len, "cpu spec '%s': this machine has %u %s (%s)", text,
				n, n == 1 ? topo_kinds[k].one : topo_kinds[k].many, range);
	}
	for (unsigned i = t->first; i <= t->last; i++)
		topo_add_bitmap(hwloc_get_obj_by_type(topo, topo_kinds[k].type, i)->cpuset, out);
	return 0;
}

int topology_resolve(const struct cpuspec *spec, cpu_set_t *out, char *why, size_t why_len)
{
	hwloc_topology_t topo = topo_get(why, why_len);

	CPU_ZERO(out);
	if (!topo)
		return -1;
	if (spec->n_terms == 0) {
		topo_add_bitmap(hwloc_topology_get_allowed_cpuset(topo), out);
		return 0;
	}
	for (size_t i = 0; i < spec->n_terms; i++)
		if (topo_resolve_term(topo, &spec->terms[i], out, why, why_len) < 0)
			return -1;
	if (CPU_COUNT(out) == 0)
		return error_why(why, why_len, "cpu spec resolves to no CPU this process may use");
	return 0;
}

int topology_cpus(const char *text, cpu_set_t *out, char *why, size_t why_len)
{
	struct cpuspec spec = { .n_terms = 0 };
	size_t off;

	if (text && *text && cpuspec_parse(text, &spec, &off, why, why_len) < 0)
		return -1;
	return topology_resolve(&spec, out, why, why_len);
}

static int topo_count(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);

	return n < 0 ? 0 : n;
}

int topology_nr_pus(void)
{
	hwloc_topology_t topo = topo_get(NULL, 0);

	return topo ? topo_count(topo, HWLOC_OBJ_PU) : -1;
}

/* The last-level cache, as ", L3 32MB", or "" when hwloc saw none. */
static void topo_llc_text(hwloc_topology_t topo, char *buf, size_t len)
{
	static const hwloc_obj_type_t levels[] = { HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE };
	hwloc_obj_t o;
	unsigned long long kb;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		o = hwloc_get_obj_by_type(topo, levels[i], 0);
		if (!o || !o->attr)
			continue;
		kb = (unsigned long long)o->attr->cache.size / 1024;
		if (kb >= 1024 && kb % 1024 == 0)
			snprintf(buf, len, ", L%u %lluMB", o->attr->cache.depth, kb / 1024);
		else
			snprintf(buf, len, ", L%u %lluKB", o->attr->cache.depth, kb);
		return;
	}
}

const char *topology_summary(char *buf, size_t len)
{
	char why[160], llc[32];
	hwloc_topology_t topo = topo_get(why, sizeof(why));
	int pk, co, pu, nu;

	if (!topo) {
		snprintf(buf, len, "topology unknown: %s", why);
		return buf;
	}
	pk = topo_count(topo, HWLOC_OBJ_PACKAGE);
	co = topo_count(topo, HWLOC_OBJ_CORE);
	pu = topo_count(topo, HWLOC_OBJ_PU);
	nu = topo_count(topo, HWLOC_OBJ_NUMANODE);
	topo_llc_text(topo, llc, sizeof(llc));
	snprintf(buf, len, "%d package%s, %d core%s, %d PU%s, %d NUMA node%s%s",
		 pk, pk == 1 ? "" : "s", co, co == 1 ? "" : "s", pu, pu == 1 ? "" : "s",
		 nu, nu == 1 ? "" : "s", llc);
	return buf;
}

const char *cpuset_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	int i = 0, start;

	if (len)
		buf[0] = '\0';
	while (i < CPU_SETSIZE) {
		if (!CPU_ISSET(i, set)) {
			i++;
			continue;
		}
		for (start = i; i + 1 < CPU_SETSIZE && CPU_ISSET(i + 1, set); i++)
			;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 start == i ? "%s%d" : "%s%d-%d",
						 used ? "," : "", start, i);
		i++;
	}
	return buf;
}
