/* sem_clockwait is a GNU extension (glibc 2.30): Swift's Glibc module does not declare it. */
#define _GNU_SOURCE
#include "PoolSemaphore.h"

#include <errno.h>
#include <semaphore.h>
#include <stdlib.h>
#include <time.h>

struct routekit_pool_semaphore {
    sem_t semaphore;
};

routekit_pool_semaphore *routekit_pool_semaphore_create(void) {
    routekit_pool_semaphore *created = malloc(sizeof *created);
    if (created == NULL) return NULL;
    if (sem_init(&created->semaphore, 0, 0) != 0) {
        free(created);
        return NULL;
    }
    return created;
}

void routekit_pool_semaphore_destroy(routekit_pool_semaphore *semaphore) {
    sem_destroy(&semaphore->semaphore);
    free(semaphore);
}

void routekit_pool_semaphore_post(routekit_pool_semaphore *semaphore) {
    sem_post(&semaphore->semaphore);
}

void routekit_pool_semaphore_wait(routekit_pool_semaphore *semaphore) {
    /* The pool's threads block asynchronous signals; EINTR is retried all the same. */
    while (sem_wait(&semaphore->semaphore) != 0 && errno == EINTR) {}
}

int routekit_pool_semaphore_wait_until(routekit_pool_semaphore *semaphore, uint64_t deadline) {
    struct timespec until = {
        .tv_sec = (time_t)(deadline / 1000000000u),
        .tv_nsec = (long)(deadline % 1000000000u),
    };
    for (;;) {
        if (sem_clockwait(&semaphore->semaphore, CLOCK_MONOTONIC, &until) == 0) return 1;
        if (errno != EINTR) return 0;
    }
}
