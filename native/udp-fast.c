/*
 * Batched UDP I/O for Vigil's name server (issues 4, 32).
 *
 * node:dgram pays one syscall, one 64 KiB allocation and one trip into
 * JavaScript per datagram; on two cores that caps a Node name server well
 * below NSD. This addon owns the UDP sockets instead (one per receive
 * thread, one SO_REUSEPORT group: udp-socket.c): receive threads read
 * with recvmmsg(2), answer repeated questions from a reply cache that
 * JavaScript fills (udp-calls.c), and write with sendmmsg(2). Replies are
 * JavaScript's bytes, names already compressed (src/dns/server/compress.ts). Every other message (a
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
#include "udp-fast.h"

/*
 * Under STEER_CPU socket k of the group gets what CPU k (modulo the group's
 * size) received (udp-socket.c); the thread reading it runs on that CPU, so
 * the wake-up and the reply stay there, no cross-CPU wake-up (measured:
 * 180k q/s pinned against 117k unpinned, docs/performance.md). The kernel
 * does not say which CPU an unconnected UDP socket's datagrams came in on
 * (SO_INCOMING_CPU is only kept for connected ones), so the index comes
 * from the order the sockets joined: JavaScript binds them in order.
 */
static int allowed_cpu(int index) {
  /* The index-th CPU this process may run on (taskset, a cpuset), modulo their number: never one outside them. */
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < 1) return -1;
  index %= CPU_COUNT(&allowed);
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET(cpu, &allowed) && index-- == 0) return cpu;
  return -1;
}

/* A receive thread, started on `cpu` (-1: anywhere): set before it runs, so it never starts elsewhere. */
static int start_reader(pthread_t *thread, reader_t *reader, int cpu) {
  pthread_attr_t attr;
  cpu_set_t set;
  pthread_attr_init(&attr);
  if (cpu >= 0) {
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_attr_setaffinity_np(&attr, sizeof set, &set);
  }
  int err = pthread_create(thread, &attr, receive_loop, reader);
  pthread_attr_destroy(&attr);
  return err;
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
  for (int i = 0; i < s->nthreads; i++) shutdown(s->fds[i], SHUT_RDWR); /* wakes threads blocked in recvmmsg */
  for (int i = 0; i < s->nthreads; i++) pthread_join(s->threads[i], NULL);
  for (int i = 0; i < s->nthreads; i++) close(s->fds[i]);
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

/*
 * open(host, port, threads, onMiss, recvBufferBytes, steer, group, first, spinUs) -> handle: `threads` sockets bound
 * with SO_REUSEPORT (worker processes and threads share the port), each read by its own thread; `group`: how
 * many sockets all processes bind together, for the steering program (udp-socket.c); `first`: the index in
 * the group of this call's first socket (processes bind in turn), or -1 when unknown.
 */
static napi_value js_open(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  char host[INET6_ADDRSTRLEN + 1];
  int32_t port, threads, rcvbuf, steer, group, first, spin_us = 0;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  CHECK(napi_get_value_string_utf8(env, argv[0], host, sizeof host, NULL));
  CHECK(napi_get_value_int32(env, argv[1], &port));
  CHECK(napi_get_value_int32(env, argv[2], &threads));
  CHECK(napi_get_value_int32(env, argv[4], &rcvbuf));
  CHECK(napi_get_value_int32(env, argv[5], &steer));
  CHECK(napi_get_value_int32(env, argv[6], &group));
  CHECK(napi_get_value_int32(env, argv[7], &first));
  if (argc >= 9) CHECK(napi_get_value_int32(env, argv[8], &spin_us));
  if (threads < 1 || threads > MAX_THREADS || port < 0 || port > 65535 || group < threads || group > 1024 ||
      spin_us < 0 || spin_us > 1000000)
    return throw_errno(env, "open", EINVAL);
  struct sockaddr_storage sa;
  socklen_t salen;
  if (parse_address(host, port, &sa, &salen) < 0) return throw_errno(env, "open", EINVAL);
  server_t *s = calloc(1, sizeof *s);
  entry_t *slots = calloc(SLOTS, sizeof(entry_t));
  if (!s || !slots || rrl_init(&s->rrl) != 0) {
    free(s), free(slots);
    return throw_errno(env, "open", ENOMEM);
  }
  for (int i = 0; i < threads; i++) {
    int fd = open_udp_socket(&sa, salen, rcvbuf, steer, (unsigned)group);
    if (fd < 0) {
      for (int j = 0; j < i; j++) close(s->fds[j]);
      rrl_destroy(&s->rrl), free(s), free(slots);
      return throw_errno(env, "bind", -fd);
    }
    s->fds[i] = fd;
    /* Port 0: the others join the port the first one got. */
    if (i == 0 && port == 0) {
      socklen_t len = salen;
      getsockname(fd, (struct sockaddr *)&sa, &len);
    }
  }
  s->slots = slots;
  pthread_rwlock_init(&s->lock, NULL);
  napi_value name;
  napi_create_string_utf8(env, "vigil-udp-miss", NAPI_AUTO_LENGTH, &name);
  CHECK(napi_create_threadsafe_function(env, argv[3], NULL, name, MISS_QUEUE, 1, NULL, NULL, NULL, call_js, &s->misses));
  for (int i = 0; i < threads; i++) {
    int cpu = steer == STEER_CPU && group > 1 && first >= 0 ? allowed_cpu(first + i) : -1;
    s->readers[i] = (reader_t){s, s->fds[i], cpu, spin_us};
    if (start_reader(&s->threads[i], &s->readers[i], cpu) != 0) {
      for (int j = i; j < threads; j++) close(s->fds[j]); /* fewer threads: the group's hash falls back */
      break;
    }
    s->nthreads++;
  }
  napi_value handle;
  CHECK(napi_create_external(env, s, finalize, NULL, &handle));
  return handle;
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
    if (verdict == RRL_SLIP) sendto(s->fds[0], slip, rrl_slip(data, len, slip), MSG_DONTWAIT, (struct sockaddr *)&sa, salen);
    else if (verdict == RRL_ANSWER) sendto(s->fds[0], data, len, MSG_DONTWAIT, (struct sockaddr *)&sa, salen);
  }
  napi_create_int32(env, verdict, &result);
  return result;
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
      {"clearZones", NULL, js_clear_zones, NULL, NULL, NULL, napi_default, NULL},
      {"stats", NULL, js_stats, NULL, NULL, NULL, napi_default, NULL},
      {"rateLimit", NULL, js_rate_limit, NULL, NULL, NULL, napi_default, NULL},
      {"tick", NULL, js_tick, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
