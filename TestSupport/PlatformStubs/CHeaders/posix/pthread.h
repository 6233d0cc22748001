// A stand-in for <pthread.h> on a POSIX system that is neither Apple's, Linux nor
// Windows (FreeBSD, OpenBSD, …), for compiling CTrackingSupport's last branch (the
// pthread mutex) with clang on Linux (Scripts/check-apple-platforms.sh). Only what the
// C layer uses, as POSIX declares it (pthread_self, pthread_mutex_init,
// pthread_mutex_destroy, pthread_mutex_lock, pthread_mutex_trylock, pthread_mutex_unlock,
// PTHREAD_MUTEX_INITIALIZER); the types are opaque here, as POSIX leaves them, and the
// initializer is a null pointer, as on FreeBSD and OpenBSD, where a mutex is one.
#ifndef TRACKING_STUB_POSIX_PTHREAD_H
#define TRACKING_STUB_POSIX_PTHREAD_H

#include <stddef.h>

typedef struct tracking_stub_pthread *pthread_t;
typedef struct tracking_stub_pthread_mutex *pthread_mutex_t;
typedef struct tracking_stub_pthread_mutexattr *pthread_mutexattr_t;

#define PTHREAD_MUTEX_INITIALIZER NULL

pthread_t pthread_self(void);
int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_trylock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);

#endif
