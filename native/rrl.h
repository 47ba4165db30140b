/*
 * Response rate limiting for the native UDP I/O (issue 28): the same
 * token buckets as src/dns/server/rrl.ts, which documents the rules; this
 * file only keeps them where the cache hits are answered, in C.
 */
#ifndef VIGIL_RRL_H
#define VIGIL_RRL_H
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

enum { RRL_ANSWER = 0, RRL_SLIP = 1, RRL_DROP = 2 };

typedef struct {
  uint64_t key;     /* hash of (client network, response key); 0: empty */
  uint64_t at;      /* clock ms of the last refill */
  uint32_t milli;   /* milli-tokens left, at most rate * 1000 */
  uint32_t limited; /* responses limited so far, for the slip */
} rrl_bucket_t;

typedef struct {
  pthread_mutex_t lock;
  atomic_uint rate; /* responses a second; 0: off (read without the lock, so that off costs nothing) */
  uint32_t slip;
  atomic_ullong now; /* ms, pushed by JavaScript from the injected Clock */
  rrl_bucket_t *buckets;
  struct sockaddr_storage *exempt;
  int nexempt;
  atomic_ulong dropped, slipped;
} rrl_t;

int rrl_init(rrl_t *r);
void rrl_destroy(rrl_t *r);
/* Replaces the settings; exempt: the addresses never limited (the operator's secondaries). Returns 0 or ENOMEM. */
int rrl_configure(rrl_t *r, uint32_t rate, uint32_t slip, const struct sockaddr_storage *exempt, int nexempt);
/* The hash of a response key as JavaScript spells it (rrl.ts responseKey). */
uint64_t rrl_key(const char *s, size_t n);
/* What to do with one response of `key` to `from`: RRL_ANSWER, RRL_SLIP or RRL_DROP (counted). */
int rrl_check(rrl_t *r, const struct sockaddr_storage *from, uint64_t key);
/* The slip of `reply` into `out` (room for 272 bytes): its header and question, TC set. Returns its length. */
size_t rrl_slip(const uint8_t *reply, size_t len, uint8_t *out);

#endif
