/* SPDX-License-Identifier: GPL-2.0-or-later */
/* GLib's GMutex, GCond and GRWLock on POSIX threads, for a race detector
 * (bench/race-tsan.sh): GLib 2.74 implements them with futexes and atomics
 * in uninstrumented code, which ThreadSanitizer, helgrind and DRD cannot
 * see, so every access ftlens orders with them looks like a race. Preloaded
 * (LD_PRELOAD), these definitions take ftlens's own calls (GLib's calls
 * within itself stay bound to its own); each lock is a pthread object
 * allocated on first use, as GLib's non-futex build does, so that statically
 * zeroed locks work too. Built with -fsanitize=thread, it also tells
 * ThreadSanitizer of the order GThreadPool's own queue gives (a job runs
 * after its push; g_thread_pool_free() with wait returns after the jobs),
 * else every job's first touch of what its pusher wrote is a report; built
 * with -DSHIM_HELGRIND or -DSHIM_DRD it tells valgrind's tools the same
 * (bench/race-helgrind.sh). Not part of ftlens. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

typedef union {
	void *p;
	unsigned int i[2];
} GMutex;
typedef struct {
	void *p;
	unsigned int i[2];
} GCond;
typedef struct {
	void *p;
	unsigned int i[2];
} GRWLock;
typedef int gboolean;
typedef int64_t gint64;
typedef int gint;
typedef void *gpointer;
typedef void (*GFunc)(gpointer data, gpointer user_data);
typedef struct _GError GError;
typedef struct _GThreadPool GThreadPool;

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHIM_TSAN 1
#endif
#endif
#ifdef SHIM_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#elif defined(SHIM_HELGRIND) /* bench/race-helgrind.sh: the same edges for helgrind */
#include <valgrind/helgrind.h>
#define __tsan_acquire(a) ANNOTATE_HAPPENS_AFTER(a)
#define __tsan_release(a) ANNOTATE_HAPPENS_BEFORE(a)
#elif defined(SHIM_DRD) /* ... and for DRD */
#include <valgrind/drd.h>
#define __tsan_acquire(a) ANNOTATE_HAPPENS_AFTER(a)
#define __tsan_release(a) ANNOTATE_HAPPENS_BEFORE(a)
#else
#define __tsan_acquire(a) ((void)(a))
#define __tsan_release(a) ((void)(a))
#endif

static void *shim_get(void **slot, size_t size, int (*init)(void *))
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (p)
		return p;
	void *q = calloc(1, size);
	if (!q)
		abort();
	init(q);
	void *expected = NULL;
	if (__atomic_compare_exchange_n(slot, &expected, q, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return q;
	free(q); /* another thread's won; it was never used */
	return expected;
}

static int shim_mutex_init(void *p)
{
	return pthread_mutex_init(p, NULL);
}

static int shim_cond_init(void *p)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	int rc = pthread_cond_init(p, &a);
	pthread_condattr_destroy(&a);
	return rc;
}

static int shim_rw_init(void *p)
{
	return pthread_rwlock_init(p, NULL);
}

#define M(m) ((pthread_mutex_t *)shim_get(&(m)->p, sizeof(pthread_mutex_t), shim_mutex_init))
#define C(c) ((pthread_cond_t *)shim_get(&(c)->p, sizeof(pthread_cond_t), shim_cond_init))
#define RW(l) ((pthread_rwlock_t *)shim_get(&(l)->p, sizeof(pthread_rwlock_t), shim_rw_init))

void g_mutex_init(GMutex *m)
{
	m->p = NULL;
	(void)M(m);
}

void g_mutex_clear(GMutex *m)
{
	if (m->p) {
		pthread_mutex_destroy(m->p);
		free(m->p);
		m->p = NULL;
	}
}

void g_mutex_lock(GMutex *m)
{
	pthread_mutex_lock(M(m));
}

void g_mutex_unlock(GMutex *m)
{
	pthread_mutex_unlock(M(m));
}

gboolean g_mutex_trylock(GMutex *m)
{
	return pthread_mutex_trylock(M(m)) == 0;
}

void g_cond_init(GCond *c)
{
	c->p = NULL;
	(void)C(c);
}

void g_cond_clear(GCond *c)
{
	if (c->p) {
		pthread_cond_destroy(c->p);
		free(c->p);
		c->p = NULL;
	}
}

void g_cond_wait(GCond *c, GMutex *m)
{
	pthread_cond_wait(C(c), M(m));
}

void g_cond_signal(GCond *c)
{
	pthread_cond_signal(C(c));
}

void g_cond_broadcast(GCond *c)
{
	pthread_cond_broadcast(C(c));
}

/* end_time: g_get_monotonic_time() microseconds */
gboolean g_cond_wait_until(GCond *c, GMutex *m, gint64 end_time)
{
	struct timespec ts = { (time_t)(end_time / 1000000), (long)(end_time % 1000000) * 1000 };
	return pthread_cond_timedwait(C(c), M(m), &ts) != ETIMEDOUT;
}

void g_rw_lock_init(GRWLock *l)
{
	l->p = NULL;
	(void)RW(l);
}

void g_rw_lock_clear(GRWLock *l)
{
	if (l->p) {
		pthread_rwlock_destroy(l->p);
		free(l->p);
		l->p = NULL;
	}
}

void g_rw_lock_writer_lock(GRWLock *l)
{
	pthread_rwlock_wrlock(RW(l));
}

void g_rw_lock_writer_unlock(GRWLock *l)
{
	pthread_rwlock_unlock(RW(l));
}

void g_rw_lock_reader_lock(GRWLock *l)
{
	pthread_rwlock_rdlock(RW(l));
}

void g_rw_lock_reader_unlock(GRWLock *l)
{
	pthread_rwlock_unlock(RW(l));
}

/* ---- GThreadPool's queue as a happens-before edge ------------------------- */

/* One per pool: its job function and data, and the address the edges use. */
typedef struct {
	GFunc func;
	gpointer user;
	GThreadPool *pool;
} ShimPool;

static pthread_mutex_t shim_pools_lock = PTHREAD_MUTEX_INITIALIZER;
static ShimPool *shim_pools[256];

static ShimPool *shim_pool_of(GThreadPool *pool)
{
	ShimPool *found = NULL;
	pthread_mutex_lock(&shim_pools_lock);
	for (int i = 0; i < 256 && !found; i++)
		if (shim_pools[i] && shim_pools[i]->pool == pool)
			found = shim_pools[i];
	pthread_mutex_unlock(&shim_pools_lock);
	return found;
}

static void shim_job(gpointer data, gpointer user)
{
	ShimPool *sp = user;
	__tsan_acquire(sp);
	sp->func(data, sp->user);
	__tsan_release(sp);
}

GThreadPool *g_thread_pool_new(GFunc func, gpointer user, gint max_threads, gboolean exclusive,
			       GError **error)
{
	static GThreadPool *(*next)(GFunc, gpointer, gint, gboolean, GError **);
	if (!next)
		next = (GThreadPool * (*)(GFunc, gpointer, gint, gboolean, GError **))
			dlsym(RTLD_NEXT, "g_thread_pool_new");
	ShimPool *sp = calloc(1, sizeof *sp);
	if (!sp)
		abort();
	sp->func = func;
	sp->user = user;
	GThreadPool *pool = next(shim_job, sp, max_threads, exclusive, error);
	sp->pool = pool;
	pthread_mutex_lock(&shim_pools_lock);
	for (int i = 0; i < 256; i++)
		if (!shim_pools[i]) {
			shim_pools[i] = sp;
			break;
		}
	pthread_mutex_unlock(&shim_pools_lock);
	return pool;
}

gboolean g_thread_pool_push(GThreadPool *pool, gpointer data, GError **error)
{
	static gboolean (*next)(GThreadPool *, gpointer, GError **);
	if (!next)
		next = (gboolean(*)(GThreadPool *, gpointer, GError **))dlsym(RTLD_NEXT,
									       "g_thread_pool_push");
	ShimPool *sp = shim_pool_of(pool);
	if (sp)
		__tsan_release(sp);
	return next(pool, data, error);
}

void g_thread_pool_free(GThreadPool *pool, gboolean immediate, gboolean wait)
{
	static void (*next)(GThreadPool *, gboolean, gboolean);
	if (!next)
		next = (void (*)(GThreadPool *, gboolean, gboolean))dlsym(RTLD_NEXT,
									  "g_thread_pool_free");
	ShimPool *sp = shim_pool_of(pool);
	next(pool, immediate, wait);
	if (sp) {
		__tsan_acquire(sp);
		pthread_mutex_lock(&shim_pools_lock);
		for (int i = 0; i < 256; i++)
			if (shim_pools[i] == sp)
				shim_pools[i] = NULL;
		pthread_mutex_unlock(&shim_pools_lock);
		/* sp stays allocated: a job of a pool freed without wait may
		 * still run */
	}
}
