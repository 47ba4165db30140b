/*
 * Response rate limiting for the native UDP I/O: see rrl.h, and
 * src/dns/server/rrl.ts for the rules (the two must keep the same
 * arithmetic: the tests run the same bursts through both).
 *
 * The buckets are a fixed open-addressed table: 2^15 slots of 24 bytes
 * (768 KiB), each key probed in 8 slots. A slot idle for a second holds a
 * full bucket, the same as none, so it is taken over (the age-out); when
 * all 8 are busy, the one refilled longest ago is. Memory never grows.
 */
#include "rrl.h"
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#define RRL_SLOTS (1u << 15)
#define RRL_PROBES 8
#define TOKEN 1000u

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

uint64_t rrl_key(const char *s, size_t n) { return fnv(1469598103934665603ULL, (const uint8_t *)s, n); }

int rrl_init(rrl_t *r) {
  memset(r, 0, sizeof *r);
  r->buckets = calloc(RRL_SLOTS, sizeof(rrl_bucket_t));
  if (!r->buckets) return ENOMEM;
  pthread_mutex_init(&r->lock, NULL);
  return 0;
}

void rrl_destroy(rrl_t *r) {
  free(r->buckets);
  free(r->exempt);
  pthread_mutex_destroy(&r->lock);
}

int rrl_configure(rrl_t *r, uint32_t rate, uint32_t slip, const struct sockaddr_storage *exempt, int nexempt) {
  struct sockaddr_storage *copy = NULL;
  if (nexempt > 0) {
    copy = malloc(sizeof *copy * (size_t)nexempt);
    if (!copy) return ENOMEM;
    memcpy(copy, exempt, sizeof *copy * (size_t)nexempt);
  }
  pthread_mutex_lock(&r->lock);
  free(r->exempt);
  r->exempt = copy;
  r->nexempt = nexempt > 0 ? nexempt : 0;
  atomic_store(&r->rate, rate);
  r->slip = slip;
  memset(r->buckets, 0, RRL_SLOTS * sizeof(rrl_bucket_t));
  pthread_mutex_unlock(&r->lock);
  return 0;
}

/* The address's 16 or 4 bytes (an IPv4-mapped IPv6 address is its IPv4); returns the family. */
static int address_of(const struct sockaddr_storage *sa, const uint8_t **bytes) {
  if (sa->ss_family == AF_INET) {
    *bytes = (const uint8_t *)&((const struct sockaddr_in *)sa)->sin_addr;
    return AF_INET;
  }
  const uint8_t *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
  static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (memcmp(a, mapped, 12) == 0) {
    *bytes = a + 12;
    return AF_INET;
  }
  *bytes = a;
  return AF_INET6;
}

/* Caller holds the lock. */
static int exempted(const rrl_t *r, int family, const uint8_t *addr) {
  for (int i = 0; i < r->nexempt; i++) {
    const uint8_t *e;
    if (address_of(&r->exempt[i], &e) == family && memcmp(e, addr, family == AF_INET ? 4 : 16) == 0) return 1;
  }
  return 0;
}

int rrl_check(rrl_t *r, const struct sockaddr_storage *from, uint64_t key) {
  if (!atomic_load(&r->rate)) return RRL_ANSWER;
  const uint8_t *addr;
  int family = address_of(from, &addr);
  /* The client network: an IPv4 /24 or an IPv6 /56, tagged with its family. */
  uint8_t net[8] = {(uint8_t)family};
  size_t nlen = family == AF_INET ? 4 : 8;
  memcpy(net + 1, addr, nlen - 1);
  uint64_t h = fnv(fnv(1469598103934665603ULL, net, nlen), (const uint8_t *)&key, sizeof key);
  if (!h) h = 1;
  int verdict = RRL_ANSWER;
  pthread_mutex_lock(&r->lock);
  uint32_t rate = atomic_load(&r->rate);
  if (!rate || exempted(r, family, addr)) goto done;
  uint64_t now = atomic_load(&r->now);
  uint32_t full = rate * TOKEN;
  rrl_bucket_t *b = NULL, *idle = NULL, *oldest = NULL;
  for (uint32_t i = 0; i < RRL_PROBES; i++) {
    rrl_bucket_t *s = &r->buckets[(h + i) & (RRL_SLOTS - 1)];
    if (s->key == h) {
      b = s;
      break;
    }
    if (!idle && (!s->key || now < s->at || now - s->at >= 1000)) idle = s;
    if (!oldest || s->at < oldest->at) oldest = s;
  }
  if (!b) {
    b = idle ? idle : oldest;
    *b = (rrl_bucket_t){.key = h, .at = now, .milli = full, .limited = 0};
  } else if (now > b->at) {
    uint64_t add = now - b->at >= 1000 ? full : (now - b->at) * rate;
    b->milli = b->milli + add >= full ? full : (uint32_t)(b->milli + add);
    b->at = now;
  } else
    b->at = now; /* the clock went back: no refill, and none owed later */
  if (b->milli >= TOKEN)
    b->milli -= TOKEN;
  else
    verdict = r->slip && b->limited++ % r->slip == 0 ? RRL_SLIP : RRL_DROP;
done:
  pthread_mutex_unlock(&r->lock);
  if (verdict == RRL_DROP) atomic_fetch_add(&r->dropped, 1);
  if (verdict == RRL_SLIP) atomic_fetch_add(&r->slipped, 1);
  return verdict;
}

size_t rrl_slip(const uint8_t *reply, size_t len, uint8_t *out) {
  if (len < 12) return 0;
  size_t end = 12;
  if ((reply[4] << 8 | reply[5]) > 0) {
    /* A name is at most 255 bytes (RFC 1035 3.1): the question then ends at 12 + 255 + 4 at the latest. */
    size_t p = 12;
    while (p < len && p < 12 + 255 && reply[p] != 0) p += (size_t)reply[p] + 1;
    if (p < len && reply[p] == 0 && p + 5 <= len) end = p + 5; /* the zero label, QTYPE and QCLASS */
  }
  memcpy(out, reply, end);
  out[2] |= 0x02;
  out[4] = 0;
  out[5] = end > 12 ? 1 : 0;
  memset(out + 6, 0, 6);
  return end;
}
