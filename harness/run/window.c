/* The measured window (harness/run/window.h). */
#include "config.h"
#include "harness/run/window.h"

void window_measure(struct run_window *w, int64_t from_ns, int64_t until_ns,
		    const struct sampler *smp, const struct run_exact *x)
{
	struct sampler_quality q;

	*w = (struct run_window){ .from_ns = from_ns, .until_ns = until_ns };
	sampler_quality(smp, &q);
	if (q.ticks) {
		w->sampled = true;
		w->sampler_first_ns = q.first_ns;
		w->sampler_last_ns = q.last_ns;
	}
	if (x->present && x->on_ns && x->off_ns) {
		w->exact = true;
		w->exact_on_ns = x->on_ns;
		w->exact_off_ns = x->off_ns;
	}
}
