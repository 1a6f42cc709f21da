/* "Who ran instead" lines (reports/format/who-ran.h). */
#include "config.h"
#include "reports/format/who-ran.h"
#include "lib/metric.h"

#include <stdio.h>
#include <string.h>

/* Append TEXT to BUF at *USED, truncating quietly. */
static void who_ran_add(char *buf, size_t len, size_t *used, const char *text)
{
	int n = snprintf(buf + *used, len - *used, "%s", text);

	if (n > 0)
		*used += (size_t)n < len - *used ? (size_t)n : len - *used - 1;
}

/* "hog FIFO 50 950ms" (a nice-0 OTHER task: just "kworker/1:0 51us"); no
 * time unless TIMED. */
static void who_ran_holder(const struct rv_holder *h, bool timed, char *buf, size_t len)
{
	char t[32] = "", prio[24] = "";

	if (timed)
		metric_format(metric_name(MET_STARVATION_MAX), h->time_s, METRIC_DIGITS, t,
			      sizeof(t));
	if (h->priority != RV_NONE)
		snprintf(prio, sizeof(prio), " %ld", h->priority);
	else if (h->nice != RV_NONE && h->nice)
		snprintf(prio, sizeof(prio), " nice %ld", h->nice);
	if (h->policy && (strcmp(h->policy, "OTHER") || prio[0]))
		snprintf(buf, len, "%s %s%s%s%s", h->comm, h->policy, prio, t[0] ? " " : "", t);
	else
		snprintf(buf, len, "%s%s%s", h->comm, t[0] ? " " : "", t);
}

bool who_ran_text(const struct rv_load *load, char *buf, size_t len)
{
	const struct rv_load_exact *tr = &load->exact;
	char part[128], wait[32];
	size_t used = 0;

	if (!tr->present || !tr->longest_present || !len)
		return false;
	metric_format(metric_name(MET_STARVATION_MAX), tr->wait_s, METRIC_DIGITS, wait, sizeof(wait));
	snprintf(part, sizeof(part), "%s waited %s on CPU %ld:", load->name, wait, tr->cpu);
	buf[0] = '\0';
	who_ran_add(buf, len, &used, part);
	if (!tr->holders_timed && tr->n_holders) {	/* BPF: who it took the CPU from */
		who_ran_holder(&tr->holders[0], false, part, sizeof(part));
		who_ran_add(buf, len, &used, " it took the CPU from ");
		who_ran_add(buf, len, &used, part);
		return true;
	}
	for (size_t i = 0; i < tr->n_holders; i++) {
		who_ran_holder(&tr->holders[i], true, part, sizeof(part));
		who_ran_add(buf, len, &used, i ? ", " : " ");
		who_ran_add(buf, len, &used, part);
	}
	if (tr->others_s > 0) {
		metric_format(metric_name(MET_STARVATION_MAX), tr->others_s, METRIC_DIGITS, wait,
			      sizeof(wait));
		snprintf(part, sizeof(part), ", others %s", wait);
		who_ran_add(buf, len, &used, part);
	}
	if (tr->partial)
		who_ran_add(buf, len, &used, " (its start is older than what was kept)");
	return true;
}

bool who_ran_any(const struct result_view *v)
{
	for (size_t i = 0; i < v->n_runs; i++)
		for (size_t j = 0; j < v->runs[i].n_loads; j++)
			if (v->runs[i].loads[j].exact.longest_present)
				return true;
	return false;
}

void who_ran_each(const struct result_view *v,
		  void (*each)(void *data, const struct rv_run *run, const char *label,
			       const char *line), void *data)
{
	char line[1024], label[192];

	for (size_t i = 0; i < v->n_runs; i++)
		for (size_t j = 0; j < v->runs[i].n_loads; j++) {
			if (!who_ran_text(&v->runs[i].loads[j], line, sizeof(line)))
				continue;
			if (v->repetitions > 1)
				snprintf(label, sizeof(label), "%s rep %ld", v->runs[i].setting,
					 v->runs[i].repetition + 1);
			else
				snprintf(label, sizeof(label), "%s", v->runs[i].setting);
			each(data, &v->runs[i], label, line);
		}
}
