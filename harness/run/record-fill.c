/* Filling a run's records (harness/run/record-fill.h): the
 * loads' in-band summaries, the sampler, the cgroups' cpu.stat. The exact
 * source adds its figures after (exact.h). */
#include "config.h"
#include "harness/run/record-fill.h"
#include "harness/sampler/oob-metrics.h"
#include "lib/error.h"

#include <stdlib.h>

/* The sampler's tasks of L's group, each with its figures. */
static int record_tasks(struct load_record *l, const struct sampler *smp)
{
	struct sampler_quality q;
	size_t total = sampler_n_tasks(smp), n = 0;

	sampler_quality(smp, &q);
	l->tasks = calloc(total ? total : 1, sizeof(*l->tasks));
	if (!l->tasks)
		return -1;
	for (size_t i = 0; i < total; i++) {
		const struct sampler_task_result *t = sampler_task(smp, i);

		if (t->group != l->group)
			continue;
		l->tasks[n].t = t;
		figures_init(&l->tasks[n].fig);
		oob_task_figures(t, q.window_ns, &l->tasks[n].fig);
		n++;
	}
	l->n_tasks = n;
	return 0;
}

/* The sampler's figures of L's group; COPIES as oob_load_figures. */
static void record_sampled(struct load_record *l, const struct sampler *smp, unsigned copies)
{
	if (oob_load_figures(smp, l->group, copies, &l->fig) < 0 || record_tasks(l, smp) < 0) {
		warning("load '%s': out of memory for its out-of-band metrics", l->name);
		return;
	}
	l->sampled = true;
}

/* In-band figures of SPEC's records and its histogram. */
static void record_inband(struct load_record *l, const struct load_spec *spec,
			  const struct record_source *src, size_t i)
{
	struct inband_metric m[INBAND_MAX_METRICS];
	struct inband_summary *sum = malloc(sizeof(*sum));
	size_t n;

	if (!sum)
		return;
	inband_summarize(spec->type, src->stats, src->first[i], load_records_needed(spec),
			 src->wall_ns, sum);
	n = inband_metrics(spec->type, sum, m);
	for (size_t k = 0; k < n; k++)
		figures_put(&l->fig, METRIC_FROM_INBAND, m[k].id, m[k].value);
	l->hist_name = inband_hist_name(spec->type->hist);
	l->hist = sum->hist;
	free(sum);
}

int record_loads(struct run_record *r, const struct profile *p, size_t n_spawned,
		 const struct record_source *src)
{
	size_t n = n_spawned + p->n_attach;

	r->loads = calloc(n ? n : 1, sizeof(*r->loads));
	if (!r->loads)
		return -1;
	r->n_loads = n;
	for (size_t i = 0; i < n; i++) {
		struct load_record *l = &r->loads[i];
		const struct load_spec *spec = i < n_spawned ? &p->loads[i] : NULL;

		figures_init(&l->fig);
		l->group = (int)(i < n_spawned ? i : p->n_loads + (i - n_spawned));
		l->name = spec ? spec->name : p->attach[i - n_spawned].name;
		l->type = spec ? spec->type->name : "attach";
		l->leader = spec ? src->sl[i].pid : p->attach[i - n_spawned].pid;
		if (spec)
			record_inband(l, spec, src, i);
		/* a pgroup load's tasks are its command's processes (run.c) */
		record_sampled(l, r->smp, spec && spec->type->flags & LOAD_TRACK_PGROUP ?
			       (load_records_needed(spec) ? load_records_needed(spec) : 1) : 0);
		if (spec)
			cgroups_load_metrics(src->cgroups, spec->name, src->stats, src->first[i],
					     load_records_needed(spec), src->wall_ns, &l->fig);
	}
	return 0;
}

void record_free(struct run_record *r)
{
	for (size_t i = 0; r->loads && i < r->n_loads; i++)
		free(r->loads[i].tasks);
	free(r->loads);
	r->loads = NULL;
	r->n_loads = 0;
}
