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

void clear_cache(server_t *s) {
  for (uint32_t i = 0; i < SLOTS; i++)
    if (s->slots[i].bytes) free(s->slots[i].bytes), s->slots[i].bytes = NULL;
  s->entries = 0;
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

/* store(handle, query, reply, rrlKey): later copies of this question get this reply, rate limited under rrlKey. */
napi_value js_store(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  uint8_t *q, *r;
  size_t qlen, rlen;
  uint64_t key;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  server_t *s = unwrap(env, argv[0]);
  CHECK(napi_get_buffer_info(env, argv[1], (void **)&q, &qlen));
  CHECK(napi_get_buffer_info(env, argv[2], (void **)&r, &rlen));
  if (argc < 4 || !key_arg(env, argv[3], &key)) return throw_errno(env, "store", EINVAL);
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
  *e = (entry_t){h, (uint16_t)(qlen - 2), (uint16_t)rlen, bytes, key};
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

/* stats(handle) -> { hits, misses, dropped, entries, rrlDropped, rrlSlipped } */
napi_value js_stats(napi_env env, napi_callback_info info) {
  napi_value out, v;
  server_t *s = handle_arg(env, info);
  if (!s) return NULL;
  napi_create_object(env, &out);
  napi_create_double(env, (double)atomic_load(&s->hits), &v), napi_set_named_property(env, out, "hits", v);
  napi_create_double(env, (double)atomic_load(&s->missed), &v), napi_set_named_property(env, out, "misses", v);
  napi_create_double(env, (double)atomic_load(&s->dropped), &v), napi_set_named_property(env, out, "dropped", v);
  napi_create_double(env, (double)s->entries, &v), napi_set_named_property(env, out, "entries", v);
  napi_create_double(env, (double)atomic_load(&s->rrl.dropped), &v), napi_set_named_property(env, out, "rrlDropped", v);
  napi_create_double(env, (double)atomic_load(&s->rrl.slipped), &v), napi_set_named_property(env, out, "rrlSlipped", v);
  return out;
}
