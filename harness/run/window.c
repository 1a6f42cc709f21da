/* The measured window in result.json (harness/run/window.h). */
#include "config.h"
#include "harness/run/window.h"
#include "lib/timeutil.h"

static json_t *window_span(int64_t from_ns, int64_t a_ns, int64_t b_ns)
{
	return json_pack("[f, f]", (double)(a_ns - from_ns) / NSEC_PER_SEC,
			 (double)(b_ns - from_ns) / NSEC_PER_SEC);
}

json_t *window_json(int64_t from_ns, int64_t until_ns, const struct sampler *smp,
		    const struct trace *t)
{
	struct sampler_quality q;
	json_t *w = json_pack("{s:s, s:I, s:I}", "clock", "CLOCK_MONOTONIC", "from_ns",
			      (json_int_t)from_ns, "until_ns", (json_int_t)until_ns);
	int64_t on, off;

	if (!w)
		return NULL;
	sampler_quality(smp, &q);
	if (q.ticks)
		json_object_set_new(w, "sampler", window_span(from_ns, q.first_ns, q.last_ns));
	if (t) {
		trace_covered(t, &on, &off);
		if (on && off)
			json_object_set_new(w, "trace", window_span(from_ns, on, off));
	}
	return w;
}
