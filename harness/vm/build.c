/* `starve build` (build.h): resolve the source, look the key up, else
 * configure (base, fragment merged, olddefconfig, the fragment checked) and
 * make bzImage in an object directory of the cache kept per source path, so
 * make only rebuilds what changed; then copy the image and its config into
 * a new entry and rename it into place. */
#include "config.h"
#include "harness/vm/build.h"
#include "harness/vm/build-cache.h"
#include "harness/vm/build-make.h"
#include "harness/vm/build-source.h"
#include "harness/vm/exec.h"
#include "harness/vm/fragment.h"
#include "harness/run/signals.h"
#include "lib/error.h"
#include "lib/fsutil.h"
#include "lib/sha256.h"
#include "lib/timeutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

/* One build's state: what it reads and where it writes. */
struct build {
	const struct vm_build_request *rq;
	struct vm_build_result *res;
	struct vm_build_source src;
	struct vm_fragment frag;
	char cache[PATH_MAX], obj[PATH_MAX + 80], obj_arg[PATH_MAX + 90], key_text[8192];
	char make_cc[64], jobs[32];
	int lock;
};

#define BUILD_FAIL(b, status, ...) \
	(error_why((b)->res->error, sizeof((b)->res->error), __VA_ARGS__), (status))

static bool build_base_is_target(const char *base)
{
	return !strcmp(base, "tinyconfig") || !strcmp(base, "defconfig") ||
	       !strcmp(base, "allnoconfig");
}

/* The key's text: the exact source, the base, the fragment, the compiler. */
static int build_key(struct build *b)
{
	const char *base = b->rq->base ? b->rq->base : "tinyconfig";
	const char *cc[] = { "gcc", "--version", NULL };
	char compiler[512], line[256], base_hash[SHA256_HEX_LEN] = "";

	if (!build_base_is_target(base) && sha256_file(base, base_hash) < 0)
		return BUILD_FAIL(b, 2, "--base %s: not tinyconfig, defconfig or allnoconfig, and "
				  "not a readable config file: %s", base, strerror(errno));
	if (vm_exec(cc, NULL, compiler, sizeof(compiler)) != 0)
		return BUILD_FAIL(b, 3, "gcc --version failed: is a compiler installed?");
	snprintf(b->key_text, sizeof(b->key_text), "starve-build 1\narch=x86_64\ncommit=%s\n"
		 "base=%s %s\ncompiler=%s\nfragment=%s\n", b->src.commit,
		 build_base_is_target(base) ? base : "file", base_hash,
		 vm_last_line(compiler[0] ? strtok(compiler, "\n") : "", line, sizeof(line)),
		 b->frag.text);
	return 0;
}

/* "PREFIX-<12 hex of PATH's SHA-256>" under the cache, into OUT. */
static void build_cache_path(const struct build *b, const char *prefix, const char *path,
			     char *out, size_t len)
{
	char hex[SHA256_HEX_LEN];
	struct sha256 h;

	sha256_init(&h);
	sha256_update(&h, path, strlen(path));
	sha256_final_hex(&h, hex);
	snprintf(out, len, "%s/%s-%.12s", b->cache, prefix, hex);
}

/* One build of a tree at a time: its worktree (TREE@REV) and object
 * directories are shared by all of them. Waits, saying so. */
static int build_lock_tree(struct build *b)
{
	char lock[PATH_MAX + 100];

	build_cache_path(b, "lock", b->src.tree, lock, sizeof(lock));
	if ((b->lock = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0)
		return BUILD_FAIL(b, 3, "cannot open %s: %s", lock, strerror(errno));
	if (flock(b->lock, LOCK_EX | LOCK_NB) < 0) {
		fprintf(stderr, "starve: waiting for another starve build of %s\n", b->src.tree);
		flock(b->lock, LOCK_EX);
	}
	return 0;
}

/* The object directory, one per source path, kept between builds. */
static int build_obj_dir(struct build *b)
{
	build_cache_path(b, "obj", b->src.dir, b->obj, sizeof(b->obj));
	if (fs_mkdirs(b->obj) < 0)
		return BUILD_FAIL(b, 3, "cannot make %s: %s", b->obj, strerror(errno));
	snprintf(b->obj_arg, sizeof(b->obj_arg), "O=%s", b->obj);
	snprintf(b->res->log, sizeof(b->res->log), "%s/starve-build.log", b->obj);
	return 0;
}

/* Run one step; 0, or the status to return with RES->error set. */
static int build_step(struct build *b, const char *const argv[], const char *stage)
{
	char errors[1536];
	int rc = vm_build_make(argv, b->res->log, stage, b->rq->progress);

	if (signals_caught())
		return BUILD_FAIL(b, 3, "interrupted during %s: nothing was cached", stage);
	if (rc == 0)
		return 0;
	vm_build_make_errors(b->res->log, 8, errors, sizeof(errors));
	return BUILD_FAIL(b, 3, "%s failed (%s %d):\n%sthe whole log: %s", stage,
			  rc > 128 ? "signal" : "exit status", rc > 128 ? rc - 128 : rc, errors,
			  b->res->log);
}

/* make -C SRC O=OBJ ARCH=x86_64 CC=... -jN TARGET */
#define MAKE_ARGV(b, target) \
	{ "make", "-C", (b)->src.dir, (b)->obj_arg, "ARCH=x86_64", (b)->make_cc, (b)->jobs, target, NULL }

/* Base config, the fragment merged, olddefconfig, the fragment checked. */
static int build_configure(struct build *b)
{
	const char *base = b->rq->base ? b->rq->base : "tinyconfig";
	char config[PATH_MAX + 100], frag[PATH_MAX + 100], merge[PATH_MAX + 100], report[8192];
	const char *base_argv[] = MAKE_ARGV(b, base);
	const char *copy_argv[] = { "cp", base, config, NULL };
	const char *merge_argv[] = { merge, "-m", "-O", b->obj, config, frag, NULL };
	const char *old_argv[] = MAKE_ARGV(b, "olddefconfig");
	int rc, lost;
	FILE *f;

	snprintf(config, sizeof(config), "%s/.config", b->obj);
	snprintf(frag, sizeof(frag), "%s/starve.config", b->obj);
	snprintf(merge, sizeof(merge), "%s/scripts/kconfig/merge_config.sh", b->src.dir);
	if (!(f = fopen(frag, "we")) || fputs(b->frag.text, f) < 0 || fclose(f) != 0)
		return BUILD_FAIL(b, 3, "cannot write %s: %s", frag, strerror(errno));
	if (build_base_is_target(base))
		rc = build_step(b, base_argv, base);
	else
		rc = build_step(b, copy_argv, "copying the base config");
	if (rc || (rc = build_step(b, merge_argv, "merge_config.sh")) ||
	    (rc = build_step(b, old_argv, "olddefconfig")))
		return rc;
	lost = vm_fragment_check(&b->frag, config, b->src.dir, report, sizeof(report));
	if (lost < 0)
		return BUILD_FAIL(b, 3, "%s", report);
	if (lost && !b->rq->allow_missing)
		return BUILD_FAIL(b, 3, "%d option%s of the fragment did not survive olddefconfig "
				  "(--allow-missing builds anyway):\n%s", lost, lost == 1 ? "" : "s",
				  report);
	if (lost)
		warning("%d option%s of the fragment did not survive olddefconfig:\n%s", lost,
			lost == 1 ? "" : "s", report);
	return 0;
}

/* The finished entry: image, config, what made it, the log; renamed into
 * place whole. */
static int build_store(struct build *b, double seconds)
{
	char tmp[PATH_MAX + 100], src[PATH_MAX + 100], dst[PATH_MAX + 200], stamp[64];
	const char *files[][2] = { { "arch/x86/boot/bzImage", "bzImage" },
				   { ".config", "config-starve" }, { "starve-build.log", "build.log" } };
	time_t now = time(NULL);
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/tmp-%d", b->cache, (int)getpid());
	fs_remove_tree(tmp);
	if (fs_mkdirs(tmp) < 0)
		return BUILD_FAIL(b, 3, "cannot make %s: %s", tmp, strerror(errno));
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const char *cp[] = { "cp", src, dst, NULL };

		snprintf(src, sizeof(src), "%s/%s", b->obj, files[i][0]);
		snprintf(dst, sizeof(dst), "%s/%s", tmp, files[i][1]);
		if (vm_exec(cp, NULL, NULL, 0) != 0 || signals_caught()) {
			fs_remove_tree(tmp);
			return BUILD_FAIL(b, 3, "cannot copy %s into the cache (disk full?)", src);
		}
	}
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(dst, sizeof(dst), "%s/info", tmp);
	if (!(f = fopen(dst, "we")) ||
	    fprintf(f, "tree=%s\nrev=%s\ncommit=%s\nsubject=%s\nbase=%s\nbuilt=%s\nseconds=%.0f\n"
		    "%s", b->src.tree, b->src.rev, b->src.commit, b->src.subject,
		    b->rq->base ? b->rq->base : "tinyconfig", stamp, seconds, b->key_text) < 0 ||
	    fclose(f) != 0 ||
	    vm_build_cache_store(tmp, b->res->key, b->res->error, sizeof(b->res->error)) < 0) {
		fs_remove_tree(tmp);
		return BUILD_FAIL(b, 3, "cannot write the cache entry %s (disk full?)", tmp);
	}
	vm_build_cache_find(b->res->key, b->res->image, sizeof(b->res->image));
	return 0;
}

static int build_make(struct build *b)
{
	const char *argv[] = MAKE_ARGV(b, "bzImage");
	int64_t start = mono_ns();
	int rc;

	if ((rc = build_configure(b)) || (rc = build_step(b, argv, "bzImage")))
		return rc;
	b->res->built = true;
	if (!b->res->key[0]) {	/* not cached: the image stays in the object directory */
		snprintf(b->res->image, sizeof(b->res->image), "%s/arch/x86/boot/bzImage", b->obj);
		return 0;
	}
	return build_store(b, (double)(mono_ns() - start) / NSEC_PER_SEC);
}

/* sched_ext finds its struct_ops stubs in the kernel's BTF, which pahole
 * before 1.25 leaves out (the compiler folds or clones them): such a kernel
 * boots with CONFIG_SCHED_CLASS_EXT=y and logs "sched_ext: Failed to register
 * struct_ops". Said before the build, which cannot tell otherwise. */
static void build_check_pahole(const struct build *b)
{
	const char *argv[] = { "pahole", "--version", NULL };
	char out[64];
	unsigned major = 0, minor = 0;
	bool wants = false;

	for (size_t i = 0; i < b->frag.n; i++)
		wants |= !strcmp(b->frag.options[i].name, "CONFIG_SCHED_CLASS_EXT") &&
			 !strcmp(b->frag.options[i].value, "y");
	if (!wants || vm_exec(argv, NULL, out, sizeof(out)) != 0 ||
	    sscanf(out, "v%u.%u", &major, &minor) != 2 || major > 1 || minor >= 25)
		return;
	warning("pahole %u.%u is older than 1.25: the kernel will have sched_ext built in but "
		"it will not register (its BTF lacks the struct_ops stubs); install dwarves 1.25 "
		"or later for sched_ext", major, minor);
}

static void build_setup_make(struct build *b)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	snprintf(b->jobs, sizeof(b->jobs), "-j%ld", cpus > 0 ? cpus : 1);
	snprintf(b->make_cc, sizeof(b->make_cc), "CC=%s", vm_have_command("ccache") ?
		 "ccache gcc" : "gcc");
}

int vm_build(const struct vm_build_request *rq, struct vm_build_result *res)
{
	struct build b = { .rq = rq, .res = res, .lock = -1 };
	int rc;

	memset(res, 0, sizeof(*res));
	if (vm_build_source_resolve(rq->spec, &b.src, res->error, sizeof(res->error)) < 0)
		return 2;
	if (vm_fragment_load(rq->fragment, &b.frag) < 0)
		return BUILD_FAIL(&b, 2, "the config fragment %s has errors (above)",
				  rq->fragment ? rq->fragment : "");
	vm_build_cache_dir(b.cache, sizeof(b.cache));
	if ((rc = build_key(&b)))
		goto out;
	if (b.src.commit[0] && !b.src.dirty) {
		vm_build_cache_key(b.key_text, res->key);
		if (vm_build_cache_find(res->key, res->image, sizeof(res->image)))
			goto out;
	} else {
		fprintf(stderr, "starve: %s %s: built but not cached\n", b.src.tree,
			b.src.commit[0] ? "has uncommitted changes" : "is not a git tree");
	}
	build_setup_make(&b);
	build_check_pahole(&b);
	if (fs_mkdirs(b.cache) < 0) {
		rc = BUILD_FAIL(&b, 3, "cannot make %s: %s", b.cache, strerror(errno));
		goto out;
	}
	if ((rc = build_lock_tree(&b)))
		goto out;
	/* a build of the same key may have finished while this one waited */
	if (res->key[0] && vm_build_cache_find(res->key, res->image, sizeof(res->image)))
		goto out;
	if (!(rc = vm_build_source_checkout(&b.src, b.cache, res->error, sizeof(res->error)) ? 3 : 0) &&
	    !(rc = build_obj_dir(&b))) {
		int fd = open(res->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
		rc = build_make(&b);
	}
	vm_build_source_release(&b.src);
out:
	if (b.lock >= 0)
		close(b.lock);
	vm_fragment_free(&b.frag);
	return rc;
}
