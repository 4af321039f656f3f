/* Lesson files loaded on several threads (tutor_load.h). */
#define _POSIX_C_SOURCE 200809L
#include "tutor_load.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "sys.h"

#define MAX_THREADS 4
/* a lesson's C calls (the sandbox, kv.calc, kv.sim) need what the main
 * thread's default stack gives them */
#define STACK_BYTES (8u << 20)

struct tutor_loader {
    struct tutor_load_job *jobs;
    size_t n;
    size_t next; /* the first job no thread has taken */
    bool *done;
    bool ending;
    const struct lx_opts *lx;
    tutor_load_finish_fn *finish;
    void *ctx;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t threads[MAX_THREADS - 1];
    size_t n_threads;
};

static void run(struct tutor_loader *ld, size_t j)
{
    struct tutor_load_job *job = &ld->jobs[j];
    job->e = lx_load(job->path, ld->lx, &job->lesson, &job->rep);
    if (job->e == KVT_E_OK && ld->finish)
        ld->finish(job, ld->ctx);
}

/* The next job to run, taken under the lock; n when none is left or a stop
 * was asked (the flag of a signal handler, or tutor_load_end). */
static size_t take(struct tutor_loader *ld)
{
    if (ld->next >= ld->n || ld->ending || (ld->lx->stop && *ld->lx->stop))
        return ld->n;
    return ld->next++;
}

/* Runs job j without the lock, then marks it done; called with the lock
 * held, returns with it held. */
static void run_unlocked(struct tutor_loader *ld, size_t j)
{
    pthread_mutex_unlock(&ld->mu);
    run(ld, j);
    pthread_mutex_lock(&ld->mu);
    ld->done[j] = true;
    pthread_cond_broadcast(&ld->cv);
}

static void *worker(void *arg)
{
    struct tutor_loader *ld = arg;
    size_t j;

    pthread_mutex_lock(&ld->mu);
    while ((j = take(ld)) < ld->n)
        run_unlocked(ld, j);
    pthread_mutex_unlock(&ld->mu);
    return NULL;
}

struct tutor_loader *tutor_load_start(struct tutor_load_job *jobs, size_t n,
                                      const struct lx_opts *lx, unsigned threads,
                                      tutor_load_finish_fn *finish, void *ctx)
{
    struct tutor_loader *ld = calloc(1, sizeof *ld);
    bool *done = calloc(n ? n : 1, sizeof *done);
    size_t want;

    if (!ld || !done) {
        free(ld);
        free(done);
        return NULL;
    }
    ld->jobs = jobs;
    ld->n = n;
    ld->done = done;
    ld->lx = lx;
    ld->finish = finish;
    ld->ctx = ctx;
    pthread_mutex_init(&ld->mu, NULL);
    pthread_cond_init(&ld->cv, NULL);
    want = threads ? threads : (size_t)sys_core_count();
    if (want > MAX_THREADS)
        want = MAX_THREADS;
    if (want > n)
        want = n;
    if (want > 1) {
        pthread_attr_t attr;
        sigset_t all, old;
        sigfillset(&all);
        /* the threads start with every signal blocked: they go to the app's
         * own thread, whose handlers say what to do */
        pthread_sigmask(SIG_SETMASK, &all, &old);
        if (pthread_attr_init(&attr) == 0) {
            pthread_attr_setstacksize(&attr, STACK_BYTES);
            for (size_t t = 0; t + 1 < want; t++)
                if (pthread_create(&ld->threads[ld->n_threads], &attr, worker, ld) == 0)
                    ld->n_threads++;
            pthread_attr_destroy(&attr);
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    return ld;
}

bool tutor_load_wait(struct tutor_loader *ld, size_t k)
{
    bool ok;

    if (k >= ld->n)
        return false;
    pthread_mutex_lock(&ld->mu);
    while (!ld->done[k]) {
        size_t j = take(ld);
        if (j < ld->n) {
            /* any job not yet taken, k or a later one: this thread would
             * only wait otherwise */
            run_unlocked(ld, j);
            continue;
        }
        if (k >= ld->next)
            break; /* stopped before anyone took it */
        pthread_cond_wait(&ld->cv, &ld->mu);
    }
    ok = ld->done[k];
    pthread_mutex_unlock(&ld->mu);
    return ok;
}

void tutor_load_end(struct tutor_loader *ld)
{
    if (!ld)
        return;
    pthread_mutex_lock(&ld->mu);
    ld->ending = true;
    pthread_mutex_unlock(&ld->mu);
    for (size_t t = 0; t < ld->n_threads; t++)
        pthread_join(ld->threads[t], NULL);
    pthread_cond_destroy(&ld->cv);
    pthread_mutex_destroy(&ld->mu);
    free(ld->done);
    free(ld);
}
