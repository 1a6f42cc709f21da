/* compositor: an X server with a compositing window manager (interbench's
 * X and video loads): idle for a while, then a burst of frames at F Hz, each
 * needing C of CPU before its deadline, counted from the frame's scheduled
 * start. Met and missed deadlines, the lateness of late frames, and frames
 * rendered as iterations. A frame whose successor's start has already passed
 * when it could begin is dropped, and counts as missed. */
#include "config.h"
#include "loads/load.h"
#include "loads/pace.h"
#include "lib/error.h"
#include "lib/timeutil.h"

enum {
	OPT_IDLE,
	OPT_FPS,
	OPT_FRAMES,
	OPT_COST,
	OPT_DEADLINE,
};

static const struct opt_spec options[] = {
	[OPT_IDLE] = { "idle", OPT_DURATION, "ns", 0, 60e9, "500ms",
		"idle time between bursts", NULL },
	[OPT_FPS] = { "fps", OPT_INT, "Hz", 1, 1000, "60",
		"frame rate during a burst", NULL },
	[OPT_FRAMES] = { "frames", OPT_INT, NULL, 1, 1000000, "30",
		"frames per burst", NULL },
	[OPT_COST] = { "cost", OPT_DURATION, "ns", 0, 1e9, "4ms",
		"CPU time each frame needs", NULL },
	[OPT_DEADLINE] = { "deadline", OPT_DURATION, "ns", 0, 10e9, "0ns",
		"time allowed per frame; 0 means one frame period", NULL },
};

struct frame_plan {
	int64_t period_ns, deadline_ns, cost_ns;
	int64_t frames;
};

/* Render frame I of a burst that started at START. Returns false when the
 * load must stop (the frame is then not counted). */
static bool render_frame(struct load_ctx *ctx, struct worker_record *rec,
			 const struct frame_plan *fp, int64_t start, int64_t i)
{
	int64_t sched = start + i * fp->period_ns, due = sched + fp->deadline_ns, now;

	if (!pace_sleep_until(ctx, sched))
		return false;
	now = mono_ns();
	if (now >= sched + fp->period_ns) {
		/* Too late to start: the next frame is already due. */
		if (stats_measuring(ctx->stats, (uint64_t)now))
			rec->deadlines_missed++;
		return true;
	}
	work_for_ns(ctx, NULL, fp->cost_ns);
	if (load_should_stop(ctx))
		return false;
	now = mono_ns();
	if (!stats_measuring(ctx->stats, (uint64_t)now))
		return true;
	rec->iterations++;
	if (now <= due) {
		rec->deadlines_met++;
	} else {
		rec->deadlines_missed++;
		hist_record(&rec->hist, (uint64_t)(now - due));
	}
	return true;
}

static void compositor_worker(struct load_ctx *ctx, unsigned record, void *arg)
{
	const struct frame_plan *fp = arg;
	struct worker_record *rec = worker_begin(ctx, record);
	int64_t idle = ctx->spec->opts[OPT_IDLE].i;

	for (;;) {
		int64_t start = mono_ns(), i;

		for (i = 0; i < fp->frames; i++)
			if (!render_frame(ctx, rec, fp, start, i))
				break;
		if (i < fp->frames || !pace_sleep_until(ctx, mono_ns() + idle))
			break;
	}
	worker_end(rec);
}

static int run(struct load_ctx *ctx)
{
	const struct load_spec *spec = ctx->spec;
	struct frame_plan fp = {
		.period_ns = NSEC_PER_SEC / spec->opts[OPT_FPS].i,
		.deadline_ns = spec->opts[OPT_DEADLINE].i,
		.cost_ns = spec->opts[OPT_COST].i,
		.frames = spec->opts[OPT_FRAMES].i,
	};

	if (fp.deadline_ns == 0)
		fp.deadline_ns = fp.period_ns;
	if (load_run_workers(ctx, (unsigned)spec->count, compositor_worker, &fp))
		return EXIT_RUNTIME;
	return EXIT_PASS;
}

const struct load_type load_compositor = {
	.name = "compositor",
	.summary = "an X server with a compositing window manager: idle, then a burst of frames at F Hz, each needing C of CPU before its deadline (interbench X/video)",
	.options = options,
	.n_options = sizeof(options) / sizeof(options[0]),
	.hist = HIST_LATENESS,
	.flags = 0,
	.run = run,
};
