#ifndef ROUTEKIT_THREAD_SANITIZER_HOOKS_H
#define ROUTEKIT_THREAD_SANITIZER_HOOKS_H

/* Tells ThreadSanitizer about a lock it cannot see. Synchronization.Mutex locks with futex
 * system calls, which ThreadSanitizer does not intercept, so every access made under one
 * looked like a race. With ThreadSanitizer's runtime linked (swift build --sanitize=thread)
 * these call its annotations; without it they do nothing. */

/* The lock at `lock` was just taken: what was done before its last release happened before. */
void routekit_lock_acquired(void *lock);

/* The lock at `lock` is about to be released. */
void routekit_lock_releasing(void *lock);

#endif
