#ifndef ROUTEKIT_POOL_SEMAPHORE_H
#define ROUTEKIT_POOL_SEMAPHORE_H

#include <stdint.h>

/* A counting semaphore for routectl's worker pool (POSIX sem_t), whose post never waits for
 * another thread: glibc's pthread_cond_signal can block until a waiter it woke earlier has
 * been scheduled, and the pool is fed from libpulse's event thread, which must never wait. */
typedef struct routekit_pool_semaphore routekit_pool_semaphore;

/* A semaphore at zero; NULL when out of memory. */
routekit_pool_semaphore *routekit_pool_semaphore_create(void);

/* Frees `semaphore`; no thread may be waiting on it. */
void routekit_pool_semaphore_destroy(routekit_pool_semaphore *semaphore);

/* Adds one to the count and wakes one waiter, if any. Never blocks. */
void routekit_pool_semaphore_post(routekit_pool_semaphore *semaphore);

/* Takes one from the count, waiting as long as it is zero. */
void routekit_pool_semaphore_wait(routekit_pool_semaphore *semaphore);

/* Takes one from the count, waiting at most until CLOCK_MONOTONIC reads `deadline`
 * (nanoseconds): 1 when it took one, 0 when the deadline came first. */
int routekit_pool_semaphore_wait_until(routekit_pool_semaphore *semaphore, uint64_t deadline);

#endif
