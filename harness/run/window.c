/* The measured window (harness/run/window.h). */
#include "config.h"
#include "harness/run/window.h"

void window_measure(struct run_window *w, int64_t from_ns, int64_t until_ns,
		    const struct sampler *smp, const struct trace *t)
{
	struct sampler_quality q;

	*w = (struct run_window){ .from_ns = from_ns, .until_ns = until_ns };
	sampler_quality(smp, &q);
	if (q.ticks) {
		w->sampled = true;
		w->sampler_first_ns = q.first_ns;
		w->sampler_last_ns = q.last_ns;
	}
	if (t) {
		trace_covered(t, &w->trace_on_ns, &w->trace_off_ns);
		w->traced = w->trace_on_ns && w->trace_off_ns;
	}
}
