/* Applying a profile setting (harness/run/settings.h): probe all knobs, skip
 * with a reason if any is missing or read-only, else journal every old
 * value and only then write; undo on a failed write. */
#include "config.h"
#include "harness/run/settings.h"
#include "harness/kernel/knobs.h"
#include "harness/kernel/knob-features.h"
#include "lib/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

static void settings_why(char *reason, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void settings_why(char *reason, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!reason || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(reason, len, fmt, ap);
	va_end(ap);
}

/* Whether NAME can be written; if not, REASON says why in one line. */
static bool settings_usable(const char *name, const struct knob_state *st, int probed,
			    char *reason, size_t len)
{
	struct utsname u;

	if (probed < 0) {
		settings_why(reason, len, "%s: %s", name, st->reason);
		return false;
	}
	if (!st->present && strstr(st->reason, "not in this kernel")) {
		if (uname(&u) < 0)
			strcpy(u.release, "this kernel");
		settings_why(reason, len, "%s: no such knob on %s", name, u.release);
		return false;
	}
	if (!st->present || !st->readable || !st->writable) {
		settings_why(reason, len, "%s: %s", name, st->reason);
		return false;
	}
	return true;
}

/* For the features knob, replace the probed text in ST by the tokens that
 * restore each feature VALUE writes; false with REASON (a skip) when a
 * feature is unknown here. */
static bool settings_features(const char *name, const char *value, struct knob_state *st,
			      char *reason, size_t len)
{
	char path[512], why[256];

	if (!kfeat_is_knob(name))
		return true;
	if (knob_path(name, path, sizeof(path)) < 0 ||
	    kfeat_restore_value_at(path, value, st->value, sizeof(st->value), why,
				   sizeof(why)) < 0) {
		settings_why(reason, len, "%s: %s", name, why);
		return false;
	}
	return true;
}

/* Journal and write every knob; on a failed write restore all journaled. */
static enum settings_status settings_write(struct journal *j, const struct setting *s,
					   const struct knob_state *st, char *reason,
					   size_t len)
{
	char why[256];

	for (size_t i = 0; i < s->n_knobs; i++)
		if (journal_record(j, s->knobs[i].name, st[i].value) < 0) {
			settings_why(reason, len, "%s: cannot journal the old value",
				     s->knobs[i].name);
			journal_restore_knobs(j);
			return SETTINGS_FAILED;
		}
	for (size_t i = 0; i < s->n_knobs; i++) {
		if (knob_write(s->knobs[i].name, s->knobs[i].value, why, sizeof(why)) == 0)
			continue;
		settings_why(reason, len, "%s: %s", s->knobs[i].name, why);
		/* Knobs not written yet get their own value back: harmless. */
		if (journal_restore_knobs(j) != 0)
			settings_why(reason, len, "%s: %s; and restoring the others failed: "
				     "run 'starve restore'", s->knobs[i].name, why);
		return SETTINGS_FAILED;
	}
	return SETTINGS_APPLIED;
}

enum settings_status settings_apply(struct journal *j, const struct setting *s,
				    char *reason, size_t len)
{
	struct knob_state *st;
	enum settings_status ret;

	if (reason && len)
		reason[0] = '\0';
	if (!s->n_knobs)
		return SETTINGS_APPLIED;
	st = calloc(s->n_knobs, sizeof(*st));
	if (!st) {
		settings_why(reason, len, "out of memory");
		return SETTINGS_FAILED;
	}
	for (size_t i = 0; i < s->n_knobs; i++) {
		int probed = knob_probe(s->knobs[i].name, &st[i]);

		if (!settings_usable(s->knobs[i].name, &st[i], probed, reason, len) ||
		    !settings_features(s->knobs[i].name, s->knobs[i].value, &st[i], reason, len)) {
			free(st);
			return SETTINGS_SKIPPED;
		}
	}
	ret = settings_write(j, s, st, reason, len);
	free(st);
	return ret;
}

int settings_restore(struct journal *j)
{
	return journal_restore_knobs(j);
}

int knobs_snapshot(void (*fn)(const char *name, const char *value, void *arg), void *arg)
{
	struct knob_state st;
	int added = 0;

	for (size_t i = 0; knob_known[i]; i++) {
		if (knob_probe(knob_known[i], &st) < 0 || !st.readable)
			continue;
		fn(knob_known[i], st.value, arg);
		added++;
	}
	return added;
}
