/*
 * The native UDP I/O's reply cache and the calls that fill, clear,
 * configure and read it (udp-fast.c has the sockets and threads; see its
 * opening comment for what the cache holds and why).
 */
#include "udp-fast.h"

uint64_t fnv1a(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

/* Caller holds the lock (read or write). Returns the slot of the key or of the empty slot where it would go. */
uint32_t find_slot(server_t *s, const uint8_t *key, size_t klen, uint64_t h) {
  uint32_t i = (uint32_t)h & (SLOTS - 1);
  for (;;) {
    entry_t *e = &s->slots[i];
    if (!e->bytes || (e->hash == h && e->klen == klen && memcmp(e->bytes, key, klen) == 0)) return i;
    i = (i + 1) & (SLOTS - 1);
  }
}

/*
 * A batch's cache look-ups, in passes (issue 32): the table (10 MiB of
 * slots) and the entries' bytes are out of every cache when a query comes,
 * and `perf record` on the serving process under dnsperf put find_slot and
 * its memcmp at 8% of its samples (4.4% and 3.6%): two memory misses a
 * query, one after the other. Hashing the whole batch first and
 * prefetching each home slot, then each matching entry's bytes, lets a
 * batch's misses overlap instead: after, 0.1% (docs/performance.md).
 */
void prefetch_batch(server_t *s, struct mmsghdr *rmsg, struct iovec *riov, int n, uint64_t *hs) {
  for (int i = 0; i < n; i++) {
    const uint8_t *q = riov[i].iov_base;
    size_t len = rmsg[i].msg_len;
    if ((rmsg[i].msg_hdr.msg_flags & MSG_TRUNC) || !cacheable(q, len)) continue;
    hs[i] = fnv1a(q + 2, len - 2);
    __builtin_prefetch(&s->slots[(uint32_t)hs[i] & (SLOTS - 1)]);
  }
  for (int i = 0; i < n; i++) {
    if ((rmsg[i].msg_hdr.msg_flags & MSG_TRUNC) || !cacheable(riov[i].iov_base, rmsg[i].msg_len)) continue;
    const entry_t *e = &s->slots[(uint32_t)hs[i] & (SLOTS - 1)];
    if (e->bytes && e->hash == hs[i]) {
      __builtin_prefetch(e->bytes);
      /* The key (the query less its ID) is 30-50 bytes: the reply runs on into the next line. */
      __builtin_prefetch(e->bytes + 64);
    }
  }
}

void clear_cache(server_t *s) {
  for (uint32_t i = 0; i < SLOTS; i++)
    if (s->slots[i].bytes) free(s->slots[i].bytes), s->slots[i].bytes = NULL;
  s->entries = 0;
}

/*
 * Empties slot i of the linear-probing table and moves later entries of its
 * run back into the hole where their own probe passes it (backward-shift
 * deletion): every lookup still finds every entry, with no tombstones.
 * The table is never full (MAX_ENTRIES < SLOTS), so the run ends.
 */
static void remove_slot(server_t *s, uint32_t i) {
  free(s->slots[i].bytes);
  s->slots[i].bytes = NULL;
  s->entries--;
  for (uint32_t j = i;;) {
    j = (j + 1) & (SLOTS - 1);
    entry_t *e = &s->slots[j];
    if (!e->bytes) return;
    uint32_t home = (uint32_t)e->hash & (SLOTS - 1);
    /* e may fill the hole unless its home lies in (i, j], cyclically */
    int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (!stays) s->slots[i] = *e, e->bytes = NULL, i = j;
  }
}

/*
 * Removes the entries of these zones (issue 32): one change in one zone
 * keeps every other zone's replies. One pass over the slots, whatever the
 * number of zones served; a slot is looked at again after a removal, as a
 * later entry may have moved into it. Caller holds the write lock.
 */
uint32_t clear_zones(server_t *s, const uint64_t *zones, uint32_t n) {
  uint32_t removed = 0;
  for (uint32_t k = 0; k < SLOTS;) {
    entry_t *e = &s->slots[k];
    int hit = 0;
    for (uint32_t z = 0; e->bytes && z < n && !hit; z++) hit = e->zone == zones[z];
    if (hit) remove_slot(s, k), removed++;
    else k++;
  }
  s->cleared += removed;
  return removed;
}

/* A zone name as clearZones and store take it: fnv1a of its bytes (at most 255: a name's length). */
static int zone_arg(napi_env env, napi_value v, uint64_t *zone) {
  char buf[256];
  size_t n;
  if (napi_get_value_string_utf8(env, v, buf, sizeof buf, &n) != napi_ok) return 0;
  *zone = fnv1a((const uint8_t *)buf, n);
  return 1;
}

int cacheable(const uint8_t *q, size_t n) {
  return n >= 12 && n <= MAX_QUERY && (q[2] & 0xF8) == 0; /* QR=0, opcode QUERY */
}

server_t *unwrap(napi_env env, napi_value v) {
  server_t *s = NULL;
  if (napi_get_value_external(env, v, (void **)&s) != napi_ok) return NULL;
  return s;
}

/* The handle of a call whose only argument is one (port, clear, stats, close). */
server_t *handle_arg(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  return unwrap(env, argv[0]);
}

napi_value throw_errno(napi_env env, const char *what, int err) {
  char msg[160];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(err));
  napi_throw_error(env, err == EADDRINUSE ? "EADDRINUSE" : "ESYSCALL", msg);
  return NULL;
}

/* port(handle) -> the bound port (for port 0). */
napi_value js_port(napi_env env, napi_callback_info info) {
  napi_value out;
  server_t *s = handle_arg(env, info);
  if (!s) return throw_errno(env, "port", EINVAL);
  struct sockaddr_storage sa;
  socklen_t len = sizeof sa;
  getsockname(s->fds[0], (struct sockaddr *)&sa, &len);
  int port = sa.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)&sa)->sin_port) : ntohs(((struct sockaddr_in6 *)&sa)->sin6_port);
  napi_create_int32(env, port, &out);
  return out;
}

/* The hash of an RRL key passed as a string (at most 511 bytes are read: keys are a name and a type). */
int key_arg(napi_env env, napi_value v, uint64_t *key) {
  char buf[512];
  size_t n;
  if (napi_get_value_string_utf8(env, v, buf, sizeof buf, &n) != napi_ok) return 0;
  *key = rrl_key(buf, n);
  return 1;
}

/*
 * store(handle, query, reply, rrlKey, zone): later copies of this question get this reply, rate limited under
 * rrlKey, until the zone that answered it (zone: its name, "" for none) is cleared.
 */
napi_value js_store(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  uint8_t *q, *r;
  size_t qlen, rlen;
  uint64_t key, zone = fnv1a((const uint8_t *)"", 0);
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  server_t *s = unwrap(env, argv[0]);
  CHECK(napi_get_buffer_info(env, argv[1], (void **)&q, &qlen));
  CHECK(napi_get_buffer_info(env, argv[2], (void **)&r, &rlen));
  if (argc < 4 || !key_arg(env, argv[3], &key)) return throw_errno(env, "store", EINVAL);
  if (argc >= 5 && !zone_arg(env, argv[4], &zone)) return throw_errno(env, "store", EINVAL);
  if (!s || !cacheable(q, qlen) || rlen < 12 || rlen > MAX_REPLY) return NULL;
  uint8_t *bytes = malloc(qlen - 2 + rlen);
  if (!bytes) return NULL;
  memcpy(bytes, q + 2, qlen - 2);
  memcpy(bytes + qlen - 2, r, rlen);
  uint64_t h = fnv1a(q + 2, qlen - 2);
  pthread_rwlock_wrlock(&s->lock);
  if (s->entries >= MAX_ENTRIES) clear_cache(s); /* bounded: a flood of random names starts it over */
  entry_t *e = &s->slots[find_slot(s, q + 2, qlen - 2, h)];
  if (e->bytes) free(e->bytes);
  else s->entries++;
  *e = (entry_t){h, (uint16_t)(qlen - 2), (uint16_t)rlen, bytes, key, zone};
  pthread_rwlock_unlock(&s->lock);
  return NULL;
}

/* clear(handle): the serving set changed. */
napi_value js_clear(napi_env env, napi_callback_info info) {
  server_t *s = handle_arg(env, info);
  if (!s) return NULL;
  pthread_rwlock_wrlock(&s->lock);
  clear_cache(s);
  pthread_rwlock_unlock(&s->lock);
  return NULL;
}

/* clearZones(handle, zones[]) -> entries removed: the replies of these zones ("" : of names in no zone). */
napi_value js_clear_zones(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], out;
  uint32_t n;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  server_t *s = unwrap(env, argv[0]);
  CHECK(napi_get_array_length(env, argv[1], &n));
  if (!s) return throw_errno(env, "clearZones", EINVAL);
  uint64_t *zones = calloc(n ? n : 1, sizeof *zones);
  if (!zones) return throw_errno(env, "clearZones", ENOMEM);
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    if (napi_get_element(env, argv[1], i, &v) != napi_ok || !zone_arg(env, v, &zones[i])) {
      free(zones);
      return throw_errno(env, "clearZones", EINVAL);
    }
  }
  pthread_rwlock_wrlock(&s->lock);
  uint32_t removed = clear_zones(s, zones, n);
  pthread_rwlock_unlock(&s->lock);
  free(zones);
  napi_create_uint32(env, removed, &out);
  return out;
}

/* rateLimit(handle, rate, slip, exempt[]): response rate limiting (rrl.c); rate 0: off. */
napi_value js_rate_limit(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  uint32_t rate, slip, n;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  server_t *s = unwrap(env, argv[0]);
  CHECK(napi_get_value_uint32(env, argv[1], &rate));
  CHECK(napi_get_value_uint32(env, argv[2], &slip));
  CHECK(napi_get_array_length(env, argv[3], &n));
  if (!s || rate > 1000000 || n > 1024) return throw_errno(env, "rateLimit", EINVAL);
  struct sockaddr_storage *exempt = calloc(n ? n : 1, sizeof *exempt);
  if (!exempt) return throw_errno(env, "rateLimit", ENOMEM);
  int count = 0;
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    char host[INET6_ADDRSTRLEN + 1];
    socklen_t len;
    if (napi_get_element(env, argv[3], i, &v) == napi_ok &&
        napi_get_value_string_utf8(env, v, host, sizeof host, NULL) == napi_ok &&
        parse_address(host, 0, &exempt[count], &len) > 0)
      count++;
  }
  int err = rrl_configure(&s->rrl, rate, slip, exempt, count);
  free(exempt);
  return err ? throw_errno(env, "rateLimit", err) : NULL;
}

/* tick(handle, nowMs): the rate limiter's clock (JavaScript's injected Clock, pushed every 100 ms). */
napi_value js_tick(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  double now;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  server_t *s = unwrap(env, argv[0]);
  CHECK(napi_get_value_double(env, argv[1], &now));
  if (s && now >= 0) atomic_store(&s->rrl.now, (unsigned long long)now);
  return NULL;
}

/* stats(handle) -> { hits, misses, dropped, entries, cleared, rrlDropped, rrlSlipped } */
napi_value js_stats(napi_env env, napi_callback_info info) {
  napi_value out, v;
  server_t *s = handle_arg(env, info);
  if (!s) return NULL;
  napi_create_object(env, &out);
  napi_create_double(env, (double)atomic_load(&s->hits), &v), napi_set_named_property(env, out, "hits", v);
  napi_create_double(env, (double)atomic_load(&s->missed), &v), napi_set_named_property(env, out, "misses", v);
  napi_create_double(env, (double)atomic_load(&s->dropped), &v), napi_set_named_property(env, out, "dropped", v);
  napi_create_double(env, (double)s->entries, &v), napi_set_named_property(env, out, "entries", v);
  napi_create_double(env, (double)s->cleared, &v), napi_set_named_property(env, out, "cleared", v);
  napi_create_double(env, (double)atomic_load(&s->rrl.dropped), &v), napi_set_named_property(env, out, "rrlDropped", v);
  napi_create_double(env, (double)atomic_load(&s->rrl.slipped), &v), napi_set_named_property(env, out, "rrlSlipped", v);
  return out;
}
