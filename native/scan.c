/*
 * TCP connect probes and ICMP echo/timestamp for Vigil's port scanner and
 * host discovery (issue 26). Node-API only (no internal Node bindings):
 * the scan loop stays in JavaScript (src/audit/engine/scan/), this file
 * only opens, polls and closes sockets, so the loop can run synchronously
 * in a worker thread without a libuv handle or a JS object per probe.
 *
 * Measured on the 2-core development VM, full 1-65535 on 127.0.0.2, one
 * thread, nonblocking connect + epoll from C: 1.0-1.1 s, as nmap -sT in the
 * same run; the time is the kernel's (socket, SYN, RST, close). Reusing a
 * refused socket saves nothing: after an asynchronous ECONNREFUSED the
 * socket is still SS_CONNECTING, so the next connect(2) answers
 * ECONNABORTED (__inet_stream_connect, sock_error) unless an AF_UNSPEC
 * connect resets it first, a syscall for a syscall (1.0-1.3 s measured).
 *
 * ICMP, ICMPv6 and SYN probes (raw sockets): scan-raw.c.
 */
#include "scan.h"

static void finalize(napi_env env, void *data, void *hint) {
  Scan *s = data;
  if (s->ep < 0) return;
  for (int i = 0; i < s->cap; i++) if (s->fd[i] >= 0) close(s->fd[i]);
  if (s->icmp >= 0) close(s->icmp);
  if (s->icmp6 >= 0) close(s->icmp6);
  if (s->syn >= 0) close(s->syn);
  close(s->ep);
  s->ep = -1;
  free(s->fd);
  free(s->hosts);
  free(s->syn_src);
  free(s->slot_host);
  free(s->slot_port);
  free(s->slot_sport);
  free(s);
}

Scan *unwrap(napi_env env, napi_value v) {
  Scan *s = NULL;
  if (napi_get_value_external(env, v, (void **)&s) != napi_ok || !s || s->ep < 0) {
    napi_throw_error(env, NULL, "scan handle closed");
    return NULL;
  }
  return s;
}

napi_value num(napi_env env, int v) {
  napi_value r;
  napi_create_int32(env, v, &r);
  return r;
}

/* create(slots) -> handle */
static napi_value js_create(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1], handle;
  int32_t cap;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  CHECK(napi_get_value_int32(env, argv[0], &cap));
  if (cap < 1 || cap > 1 << 20) cap = 4096;
  Scan *s = calloc(1, sizeof *s);
  s->ep = epoll_create1(EPOLL_CLOEXEC);
  s->cap = cap;
  s->fd = malloc(sizeof(int) * cap);
  for (int i = 0; i < cap; i++) s->fd[i] = -1;
  s->hosts = calloc(MAX_HOSTS, sizeof *s->hosts);
  s->syn_src = calloc(MAX_HOSTS, sizeof *s->syn_src);
  s->slot_host = malloc(sizeof(int32_t) * cap);
  s->slot_port = malloc(sizeof(int32_t) * cap);
  s->slot_sport = malloc(sizeof(int32_t) * cap);
  for (int i = 0; i < cap; i++) s->slot_host[i] = s->slot_port[i] = s->slot_sport[i] = -1;
  s->icmp = -1;
  s->icmp6 = -1;
  struct timeval tv;
  gettimeofday(&tv, NULL);
  s->ping_ident = (uint16_t)(getpid() ^ tv.tv_usec); /* the echo identifier of this scan's raw sockets */
  s->syn = -1;
  CHECK(napi_create_external(env, s, finalize, NULL, &handle));
  return handle;
}

/* host(handle, address) -> index, or -1 if not an IP address */
static napi_value js_host(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  char text[64];
  size_t len;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scan *s = unwrap(env, argv[0]);
  if (!s) return NULL;
  CHECK(napi_get_value_string_utf8(env, argv[1], text, sizeof text, &len));
  if (s->nhosts >= MAX_HOSTS) return num(env, -1);
  struct sockaddr_storage *ss = &s->hosts[s->nhosts];
  memset(ss, 0, sizeof *ss);
  struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
  struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
  if (inet_pton(AF_INET, text, &a4->sin_addr) == 1) a4->sin_family = AF_INET;
  else if (inet_pton(AF_INET6, text, &a6->sin6_addr) == 1) a6->sin6_family = AF_INET6;
  else return num(env, -1);
  raw_host(s, s->nhosts);
  return num(env, s->nhosts++);
}

/* The arguments of connect and syn: (handle, slot, host, port), the slot and host in range; NULL on a throw. */
Scan *probe_args(napi_env env, napi_callback_info info, int32_t *slot, int32_t *host, int32_t *port) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) return NULL;
  Scan *s = unwrap(env, argv[0]);
  if (!s || napi_get_value_int32(env, argv[1], slot) != napi_ok || napi_get_value_int32(env, argv[2], host) != napi_ok ||
      napi_get_value_int32(env, argv[3], port) != napi_ok)
    return NULL;
  if (*slot < 0 || *slot >= s->cap || *host < 0 || *host >= s->nhosts) *slot = -1;
  return s;
}

/* connect(handle, slot, host, port) -> 1 in flight, 0 connected, -errno */
static napi_value js_connect(napi_env env, napi_callback_info info) {
  int32_t slot, host, port;
  Scan *s = probe_args(env, info, &slot, &host, &port);
  if (!s) return NULL;
  if (slot < 0 || s->fd[slot] >= 0) return num(env, -EINVAL);
  struct sockaddr_storage ss = s->hosts[host];
  int v6 = ss.ss_family == AF_INET6;
  socklen_t sl = v6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
  if (v6) ((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
  else ((struct sockaddr_in *)&ss)->sin_port = htons(port);
  int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return num(env, -errno);
  if (connect(fd, (struct sockaddr *)&ss, sl) == 0) {
    close(fd);
    return num(env, 0);
  }
  int err = errno;
  if (err != EINPROGRESS) {
    close(fd);
    return num(env, -err);
  }
  struct epoll_event ev = {.events = EPOLLOUT, .data.u32 = (uint32_t)slot};
  if (epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
    err = errno;
    close(fd);
    return num(env, -err);
  }
  s->fd[slot] = fd;
  return num(env, 1);
}

/* cancel(handle, slot): closes the probe's socket (a connect that timed out). */
static napi_value js_cancel(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t slot;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scan *s = unwrap(env, argv[0]);
  if (!s) return NULL;
  CHECK(napi_get_value_int32(env, argv[1], &slot));
  if (slot < 0 || slot >= s->cap) return NULL;
  s->slot_host[slot] = s->slot_port[slot] = -1; /* a SYN probe: its answer is no longer taken */
  if (s->fd[slot] >= 0) {
    close(s->fd[slot]);
    s->fd[slot] = -1;
  }
  return NULL;
}

/* Local end == remote end: TCP simultaneous open with itself (RFC 793 §3.4), not a listener. */
static int self_connect(int fd) {
  struct sockaddr_storage l, r;
  socklen_t ll = sizeof l, rl = sizeof r;
  if (getsockname(fd, (struct sockaddr *)&l, &ll) || getpeername(fd, (struct sockaddr *)&r, &rl)) return 0;
  return ll == rl && memcmp(&l, &r, ll) == 0;
}


/* poll(handle, Int32Array out, timeoutMs) -> n; out[2i] slot (or -1 - host for ICMP), out[2i+1] status */
static napi_value js_poll(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t timeout;
  napi_typedarray_type type;
  size_t length;
  void *data;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scan *s = unwrap(env, argv[0]);
  if (!s) return NULL;
  CHECK(napi_get_typedarray_info(env, argv[1], &type, &length, &data, NULL, NULL));
  CHECK(napi_get_value_int32(env, argv[2], &timeout));
  if (type != napi_int32_array || length < 2) return num(env, 0);
  int32_t *out = data;
  int room = (int)(length / 2);
  struct epoll_event evs[512];
  int n = epoll_wait(s->ep, evs, room < 512 ? room : 512, timeout);
  int k = 0;
  for (int i = 0; i < n && k < room; i++) {
    uint32_t slot = evs[i].data.u32;
    if (slot == ICMP_TAG || slot == ICMP6_TAG) {
      k += icmp_reply(s, slot == ICMP6_TAG, out + 2 * k, room - k);
      continue;
    }
    if (slot == SYN_TAG) {
      k += syn_reply(s, out + 2 * k, room - k);
      continue;
    }
    int fd = s->fd[slot], err = 0;
    if (fd < 0) continue;
    socklen_t l = sizeof err;
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &l);
    s->fd[slot] = -1;
    int status = err ? -err : self_connect(fd) ? SELF_CONNECT : 0;
    close(fd);
    out[2 * k] = (int32_t)slot;
    out[2 * k + 1] = status;
    k++;
  }
  return num(env, k);
}

static napi_value js_close(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scan *s = unwrap(env, argv[0]);
  if (!s) return NULL;
  for (int i = 0; i < s->cap; i++)
    if (s->fd[i] >= 0) close(s->fd[i]), s->fd[i] = -1;
  if (s->icmp >= 0) close(s->icmp), s->icmp = -1;
  if (s->icmp6 >= 0) close(s->icmp6), s->icmp6 = -1;
  if (s->syn >= 0) close(s->syn), s->syn = -1;
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"create", NULL, js_create, NULL, NULL, NULL, napi_default, NULL},
      {"host", NULL, js_host, NULL, NULL, NULL, napi_default, NULL},
      {"connect", NULL, js_connect, NULL, NULL, NULL, napi_default, NULL},
      {"cancel", NULL, js_cancel, NULL, NULL, NULL, napi_default, NULL},
      {"poll", NULL, js_poll, NULL, NULL, NULL, napi_default, NULL},
      {"icmp", NULL, js_icmp, NULL, NULL, NULL, napi_default, NULL},
      {"ping", NULL, js_ping, NULL, NULL, NULL, napi_default, NULL},
      {"synOpen", NULL, js_syn_open, NULL, NULL, NULL, napi_default, NULL},
      {"syn", NULL, js_syn, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
