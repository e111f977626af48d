#ifndef ROUTEKIT_THREAD_PLACEMENT_H
#define ROUTEKIT_THREAD_PLACEMENT_H

/* Test helpers that place the calling thread (GNU extensions Swift's Glibc module leaves out):
 * WorkerPoolTests starve one thread on purpose to show that waking never waits for it. */

/* Keeps the calling thread on processor `cpu`: 0 on success, an errno value otherwise. */
int routekit_test_pin_thread(int cpu);

/* Puts the calling thread in SCHED_IDLE: it runs only when its processor has nothing else to
 * run. 0 on success, an errno value otherwise. */
int routekit_test_make_thread_idle_class(void);

/* The calling thread's id. */
int routekit_test_thread_id(void);

/* Voluntary context switches of the calling thread so far (it waited for something). */
long routekit_test_voluntary_switches(void);

#endif
