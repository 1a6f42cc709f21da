/* Histograms to and from result.json (hist-json.h). Values are integers in
 * nanoseconds; percentiles are written for readers of the file and ignored
 * when reading, since the buckets determine them. */
#include "config.h"
#include "reports/hist-json.h"
#include "lib/error.h"

#include <inttypes.h>
#include <string.h>

static const struct {
	const char *key;
	double p;
} hist_json_percentiles[] = {
	{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p999", 99.9 },
};

static json_t *hist_json_buckets(const struct histogram *h)
{
	json_t *arr = json_array();

	for (unsigned i = 0; arr && i < HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		json_array_append_new(arr, json_pack("[II]", (json_int_t)hist_bucket_lower(i),
						     (json_int_t)h->buckets[i]));
	}
	return arr;
}

json_t *hist_to_json(const struct histogram *h)
{
	json_t *obj = json_pack("{s:s, s:I, s:I}", "unit", "ns", "count", (json_int_t)h->count,
				"sum", (json_int_t)h->sum);

	if (!obj)
		return NULL;
	if (h->count) {
		json_object_set_new(obj, "min", json_integer((json_int_t)h->min));
		json_object_set_new(obj, "max", json_integer((json_int_t)h->max));
		for (size_t i = 0; i < sizeof(hist_json_percentiles) / sizeof(hist_json_percentiles[0]); i++)
			json_object_set_new(obj, hist_json_percentiles[i].key,
					    json_integer((json_int_t)hist_percentile(h, hist_json_percentiles[i].p)));
	}
	json_object_set_new(obj, "buckets", hist_json_buckets(h));
	return obj;
}

static int hist_json_read_buckets(const json_t *arr, struct histogram *h)
{
	size_t i;
	json_t *b;

	if (!json_is_array(arr))
		return error("histogram: 'buckets' must be an array");
	json_array_foreach(arr, i, b) {
		json_int_t lower, count;
		unsigned idx;

		if (json_unpack((json_t *)b, "[II]", &lower, &count) || lower < 0 || count < 1)
			return error("histogram: bucket %zu must be [lower_ns, count] with count >= 1", i);
		idx = hist_bucket_of((uint64_t)lower);
		if (hist_bucket_lower(idx) != (uint64_t)lower)
			return error("histogram: bucket %zu: %" PRId64 " ns is not a bucket's lower bound",
				     i, (int64_t)lower);
		h->buckets[idx] += (uint64_t)count;
		h->count += (uint64_t)count;
		h->sum += (uint64_t)count * (uint64_t)lower;
		if (h->min > (uint64_t)lower)
			h->min = (uint64_t)lower;
		if (h->max < hist_bucket_upper(idx))
			h->max = hist_bucket_upper(idx);
	}
	return 0;
}

/* Optional exact integer field KEY into *out; -1 when present but not one. */
static int hist_json_uint(const json_t *obj, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return error("histogram: '%s' must be a non-negative integer", key);
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

int hist_from_json(const json_t *obj, struct histogram *h)
{
	const char *unit;
	uint64_t count = 0;

	hist_init(h);
	if (!json_is_object(obj))
		return error("histogram: expected an object");
	unit = json_string_value(json_object_get(obj, "unit"));
	if (!unit || strcmp(unit, "ns"))
		return error("histogram: unit must be \"ns\"");
	if (hist_json_read_buckets(json_object_get(obj, "buckets"), h) ||
	    hist_json_uint(obj, "count", &count))
		return -1;
	if (count != h->count)
		return error("histogram: count %" PRIu64 " but the buckets hold %" PRIu64,
			     count, h->count);
	/* min, max and sum are exact where given; buckets only bound them. */
	if (hist_json_uint(obj, "min", &h->min) || hist_json_uint(obj, "max", &h->max) ||
	    hist_json_uint(obj, "sum", &h->sum))
		return -1;
	if (!h->count)
		h->min = UINT64_MAX;
	return 0;
}
