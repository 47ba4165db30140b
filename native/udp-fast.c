/*
 * Batched UDP I/O for Vigil's name server (issue 4).
 *
 * node:dgram pays one syscall, one 64 KiB allocation and one trip into
 * JavaScript per datagram; on two cores that caps a Node name server well
 * below NSD. This addon owns the UDP socket instead: receive threads read
 * with recvmmsg(2), answer repeated questions from a reply cache that
 * JavaScript fills, and write with sendmmsg(2). Every other message (a
 * first question, NOTIFY, anything odd) goes to JavaScript unchanged,
 * where dns-packet decodes it; this file never parses DNS beyond the
 * header's ID, QR and opcode bits.
 *
 * The cache maps a query's bytes after its ID to the reply's bytes; a hit
 * copies the reply and puts the query's ID in. JavaScript clears it when
 * the serving set changes, so a reply is always of one zone version.
 *
 * Every reply, a hit or one JavaScript made, passes response rate
 * limiting first (rrl.c, issue 28): each cache entry carries the hash of
 * its reply's RRL key, which JavaScript computed when it stored it.
 */
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "rrl.h"

#define BATCH 64
#define RECV_SIZE 65536
/* Only classic-size questions are cached (as in the JavaScript path). */
#define MAX_QUERY 512
#define MAX_REPLY 4096
#define SLOTS (1u << 18)
#define MAX_ENTRIES 100000
#define MAX_THREADS 16
#define MISS_QUEUE 8192

typedef struct {
  uint64_t hash;
  uint16_t klen, rlen;
  uint8_t *bytes; /* key, then reply */
  uint64_t rrl;   /* rrl_key() of the reply's rate-limiting key */
} entry_t;

typedef struct {
  int fd;
  int nthreads;
  pthread_t threads[MAX_THREADS];
  atomic_int stop;
  napi_threadsafe_function misses;
  pthread_rwlock_t lock;
  entry_t *slots;
  uint32_t entries;
  atomic_ulong hits, missed, dropped;
  rrl_t rrl;
  int closed;
} server_t;

typedef struct {
  struct sockaddr_storage from;
  socklen_t fromlen;
  uint32_t len;
  uint8_t data[];
} miss_t;

static uint64_t fnv1a(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

/* Caller holds the lock (read or write). Returns the slot of the key or of the empty slot where it would go. */
static uint32_t find_slot(server_t *s, const uint8_t *key, size_t klen, uint64_t h) {
  uint32_t i = (uint32_t)h & (SLOTS - 1);
  for (;;) {
    entry_t *e = &s->slots[i];
    if (!e->bytes || (e->hash == h && e->klen == klen && memcmp(e->bytes, key, klen) == 0)) return i;
    i = (i + 1) & (SLOTS - 1);
  }
}

static void clear_cache(server_t *s) {
  for (uint32_t i = 0; i < SLOTS; i++)
    if (s->slots[i].bytes) free(s->slots[i].bytes), s->slots[i].bytes = NULL;
  s->entries = 0;
}

static int cacheable(const uint8_t *q, size_t n) {
  return n >= 12 && n <= MAX_QUERY && (q[2] & 0xF8) == 0; /* QR=0, opcode QUERY */
}

static void *receive_loop(void *arg) {
  server_t *s = arg;
  uint8_t *in = malloc((size_t)BATCH * RECV_SIZE);
  uint8_t *out = malloc((size_t)BATCH * MAX_REPLY);
  struct mmsghdr rmsg[BATCH], smsg[BATCH];
  struct iovec riov[BATCH], siov[BATCH];
  struct sockaddr_storage from[BATCH];
  if (!in || !out) goto done;
  while (!atomic_load(&s->stop)) {
    for (int i = 0; i < BATCH; i++) {
      riov[i].iov_base = in + (size_t)i * RECV_SIZE;
      riov[i].iov_len = RECV_SIZE;
      memset(&rmsg[i].msg_hdr, 0, sizeof rmsg[i].msg_hdr);
      rmsg[i].msg_hdr.msg_iov = &riov[i];
      rmsg[i].msg_hdr.msg_iovlen = 1;
      rmsg[i].msg_hdr.msg_name = &from[i];
      rmsg[i].msg_hdr.msg_namelen = sizeof from[i];
    }
    int n = recvmmsg(s->fd, rmsg, BATCH, MSG_WAITFORONE, NULL);
    if (n <= 0) continue; /* timeout, EINTR, or shutdown: the loop checks stop */
    int nout = 0, nhit = 0;
    pthread_rwlock_rdlock(&s->lock);
    for (int i = 0; i < n; i++) {
      const uint8_t *q = riov[i].iov_base;
      size_t len = rmsg[i].msg_len;
      if (cacheable(q, len)) {
        uint64_t h = fnv1a(q + 2, len - 2);
        entry_t *e = &s->slots[find_slot(s, q + 2, len - 2, h)];
        if (e->bytes) {
          nhit++;
          int verdict = rrl_check(&s->rrl, &from[i], e->rrl);
          if (verdict == RRL_DROP) continue;
          uint8_t *r = out + (size_t)nout * MAX_REPLY;
          size_t rlen = e->rlen;
          if (verdict == RRL_SLIP) rlen = rrl_slip(e->bytes + e->klen, e->rlen, r);
          else memcpy(r, e->bytes + e->klen, e->rlen);
          r[0] = q[0], r[1] = q[1];
          siov[nout].iov_base = r;
          siov[nout].iov_len = rlen;
          memset(&smsg[nout].msg_hdr, 0, sizeof smsg[nout].msg_hdr);
          smsg[nout].msg_hdr.msg_iov = &siov[nout];
          smsg[nout].msg_hdr.msg_iovlen = 1;
          smsg[nout].msg_hdr.msg_name = &from[i];
          smsg[nout].msg_hdr.msg_namelen = rmsg[i].msg_hdr.msg_namelen;
          nout++;
          continue;
        }
      }
      miss_t *m = malloc(sizeof(miss_t) + len);
      if (!m) continue;
      memcpy(&m->from, &from[i], rmsg[i].msg_hdr.msg_namelen);
      m->fromlen = rmsg[i].msg_hdr.msg_namelen;
      m->len = (uint32_t)len;
      memcpy(m->data, q, len);
      if (napi_call_threadsafe_function(s->misses, m, napi_tsfn_nonblocking) != napi_ok) {
        free(m); /* queue full or closing: dropped, as an overloaded socket would */
        atomic_fetch_add(&s->dropped, 1);
      } else atomic_fetch_add(&s->missed, 1);
    }
    pthread_rwlock_unlock(&s->lock);
    atomic_fetch_add(&s->hits, nhit);
    for (int sent = 0; sent < nout;) {
      int k = sendmmsg(s->fd, smsg + sent, nout - sent, 0);
      if (k > 0) sent += k;
      else if (errno == EINTR) continue;
      else sent++; /* skip the datagram the kernel refused (e.g. unreachable) */
    }
  }
done:
  free(in);
  free(out);
  return NULL;
}

/* JavaScript side of a miss: onMiss(message, address, port). */
static void call_js(napi_env env, napi_value fn, void *ctx, void *data) {
  miss_t *m = data;
  if (env && fn) {
    char host[INET6_ADDRSTRLEN] = "";
    int port = 0;
    if (m->from.ss_family == AF_INET) {
      struct sockaddr_in *a = (struct sockaddr_in *)&m->from;
      inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
      port = ntohs(a->sin_port);
    } else {
      struct sockaddr_in6 *a = (struct sockaddr_in6 *)&m->from;
      inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
      port = ntohs(a->sin6_port);
    }
    napi_value argv[3], undef;
    void *copy;
    napi_create_buffer_copy(env, m->len, m->data, &copy, &argv[0]);
    napi_create_string_utf8(env, host, NAPI_AUTO_LENGTH, &argv[1]);
    napi_create_int32(env, port, &argv[2]);
    napi_get_undefined(env, &undef);
    napi_call_function(env, undef, fn, 3, argv, NULL);
  }
  free(m);
}

static void stop_server(server_t *s) {
  if (s->closed) return;
  s->closed = 1;
  atomic_store(&s->stop, 1);
  shutdown(s->fd, SHUT_RDWR); /* wakes threads blocked in recvmmsg */
  for (int i = 0; i < s->nthreads; i++) pthread_join(s->threads[i], NULL);
  close(s->fd);
  napi_release_threadsafe_function(s->misses, napi_tsfn_abort);
}

static void finalize(napi_env env, void *data, void *hint) {
  server_t *s = data;
  stop_server(s);
  clear_cache(s);
  free(s->slots);
  pthread_rwlock_destroy(&s->lock);
  rrl_destroy(&s->rrl);
  free(s);
}

#define CHECK(call) do { if ((call) != napi_ok) { napi_throw_error(env, "EINVAL", "udp-fast: bad arguments"); return NULL; } } while (0)

static int parse_address(const char *host, int port, struct sockaddr_storage *sa, socklen_t *len) {
  memset(sa, 0, sizeof *sa);
  struct sockaddr_in *a4 = (struct sockaddr_in *)sa;
  struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)sa;
  if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
    a4->sin_family = AF_INET, a4->sin_port = htons(port), *len = sizeof *a4;
    return AF_INET;
  }
  if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
    a6->sin6_family = AF_INET6, a6->sin6_port = htons(port), *len = sizeof *a6;
    return AF_INET6;
  }
  return -1;
}

static server_t *unwrap(napi_env env, napi_value v) {
  server_t *s = NULL;
  if (napi_get_value_external(env, v, (void **)&s) != napi_ok) return NULL;
  return s;
}

/* The handle of a call whose only argument is one (port, clear, stats, close). */
static server_t *handle_arg(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return NULL;
  return unwrap(env, argv[0]);
}

static napi_value throw_errno(napi_env env, const char *what, int err) {
  char msg[160];
  snprintf(msg, sizeof msg, "%s: %s", what, strerror(err));
  napi_throw_error(env, err == EADDRINUSE ? "EADDRINUSE" : "ESYSCALL", msg);
  return NULL;
}

/* open(host, port, threads, onMiss, recvBufferBytes) -> handle; binds with SO_REUSEPORT so worker processes share the port. */
static napi_value js_open(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  char host[INET6_ADDRSTRLEN + 1];
  int32_t port, threads, rcvbuf;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  CHECK(napi_get_value_string_utf8(env, argv[0], host, sizeof host, NULL));
  CHECK(napi_get_value_int32(env, argv[1], &port));
  CHECK(napi_get_value_int32(env, argv[2], &threads));
  CHECK(napi_get_value_int32(env, argv[4], &rcvbuf));
  if (threads < 1 || threads > MAX_THREADS || port < 0 || port > 65535) return throw_errno(env, "open", EINVAL);
  struct sockaddr_storage sa;
  socklen_t salen;
  int family = parse_address(host, port, &sa, &salen);
  if (family < 0) return throw_errno(env, "open", EINVAL);
  int fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return throw_errno(env, "socket", errno);
  int one = 1;
  struct timeval tv = {0, 250000}; /* receive threads look at the stop flag at least this often */
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&sa, salen) < 0) {
    int err = errno;
    close(fd);
    return throw_errno(env, "bind", err);
  }
  server_t *s = calloc(1, sizeof *s);
  entry_t *slots = calloc(SLOTS, sizeof(entry_t));
  if (!s || !slots || rrl_init(&s->rrl) != 0) {
    free(s), free(slots), close(fd);
    return throw_errno(env, "open", ENOMEM);
  }
  s->slots = slots;
  s->fd = fd;
  pthread_rwlock_init(&s->lock, NULL);
  napi_value name;
  napi_create_string_utf8(env, "vigil-udp-miss", NAPI_AUTO_LENGTH, &name);
  CHECK(napi_create_threadsafe_function(env, argv[3], NULL, name, MISS_QUEUE, 1, NULL, NULL, NULL, call_js, &s->misses));
  for (int i = 0; i < threads; i++)
    if (pthread_create(&s->threads[s->nthreads], NULL, receive_loop, s) == 0) s->nthreads++;
  napi_value handle;
  CHECK(napi_create_external(env, s, finalize, NULL, &handle));
  return handle;
}

/* port(handle) -> the bound port (for port 0). */
static napi_value js_port(napi_env env, napi_callback_info info) {
  napi_value out;
  server_t *s = handle_arg(env, info);
  if (!s) return throw_errno(env, "port", EINVAL);
  struct sockaddr_storage sa;
  socklen_t len = sizeof sa;
  getsockname(s->fd, (struct sockaddr *)&sa, &len);
  int port = sa.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)&sa)->sin_port) : ntohs(((struct sockaddr_in6 *)&sa)->sin6_port);
  napi_create_int32(env, port, &out);
  return out;
}

/* The hash of an RRL key passed as a string (at most 511 bytes are read: keys are a name and a type). */
static int key_arg(napi_env env, napi_value v, uint64_t *key) {
  char buf[512];
  size_t n;
  if (napi_get_value_string_utf8(env, v, buf, sizeof buf, &n) != napi_ok) return 0;
  *key = rrl_key(buf, n);
  return 1;
}

/*
 * send(handle, reply, address, port, rrlKey) -> 0 sent, 1 sent as a slip (TC), 2 dropped by rate limiting:
 * one datagram, from the server's socket.
 */
static napi_value js_send(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5], result;
  void *data;
  size_t len;
  char host[INET6_ADDRSTRLEN + 1];
  int32_t port;
  uint64_t key;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  server_t *s = unwrap(env, argv[0]);
  CHECK(napi_get_buffer_info(env, argv[1], &data, &len));
  CHECK(napi_get_value_string_utf8(env, argv[2], host, sizeof host, NULL));
  CHECK(napi_get_value_int32(env, argv[3], &port));
  if (argc < 5 || !key_arg(env, argv[4], &key)) return throw_errno(env, "send", EINVAL);
  struct sockaddr_storage sa;
  socklen_t salen;
  int verdict = RRL_DROP;
  if (s && !s->closed && parse_address(host, port, &sa, &salen) > 0) {
    verdict = rrl_check(&s->rrl, &sa, key);
    uint8_t slip[MAX_QUERY];
    if (verdict == RRL_SLIP) sendto(s->fd, slip, rrl_slip(data, len, slip), MSG_DONTWAIT, (struct sockaddr *)&sa, salen);
    else if (verdict == RRL_ANSWER) sendto(s->fd, data, len, MSG_DONTWAIT, (struct sockaddr *)&sa, salen);
  }
  napi_create_int32(env, verdict, &result);
  return result;
}

/* store(handle, query, reply, rrlKey): later copies of this question get this reply, rate limited under rrlKey. */
static napi_value js_store(napi_env env, napi_callback_info info) {
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
static napi_value js_clear(napi_env env, napi_callback_info info) {
  server_t *s = handle_arg(env, info);
  if (!s) return NULL;
  pthread_rwlock_wrlock(&s->lock);
  clear_cache(s);
  pthread_rwlock_unlock(&s->lock);
  return NULL;
}

/* rateLimit(handle, rate, slip, exempt[]): response rate limiting (rrl.c); rate 0: off. */
static napi_value js_rate_limit(napi_env env, napi_callback_info info) {
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
static napi_value js_tick(napi_env env, napi_callback_info info) {
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
static napi_value js_stats(napi_env env, napi_callback_info info) {
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

/* close(handle): stops the threads and closes the socket. */
static napi_value js_close(napi_env env, napi_callback_info info) {
  server_t *s = handle_arg(env, info);
  if (s) stop_server(s);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"open", NULL, js_open, NULL, NULL, NULL, napi_default, NULL},
      {"port", NULL, js_port, NULL, NULL, NULL, napi_default, NULL},
      {"send", NULL, js_send, NULL, NULL, NULL, napi_default, NULL},
      {"store", NULL, js_store, NULL, NULL, NULL, napi_default, NULL},
      {"clear", NULL, js_clear, NULL, NULL, NULL, napi_default, NULL},
      {"stats", NULL, js_stats, NULL, NULL, NULL, napi_default, NULL},
      {"rateLimit", NULL, js_rate_limit, NULL, NULL, NULL, napi_default, NULL},
      {"tick", NULL, js_tick, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
