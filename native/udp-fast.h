/*
 * What the native UDP I/O's files share (udp-fast.c: sockets, receive
 * threads and the calls that open, send and close; udp-receive.c: the
 * receive threads' loop; udp-calls.c: the reply cache and the calls that
 * fill, clear, configure and read it).
 */
#ifndef VIGIL_UDP_FAST_H
#define VIGIL_UDP_FAST_H
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "rrl.h"
#include "udp-socket.h"

#define BATCH 64
/*
 * A receive slot. A query is a header and one question (EDNS adds some
 * dozens of bytes); 64 slots of 64 KiB put each datagram on a page of its
 * own, 4 MiB a batch, and cost cache and TLB misses per packet. A larger
 * datagram is cut (MSG_TRUNC) and dropped, as no query is that large.
 */
#define RECV_SIZE 4096
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
  uint64_t zone;  /* fnv1a() of the name of the zone that answered ("" for none): what clearZones matches */
} entry_t;

typedef struct server server_t;

/* One receive thread and the socket of the SO_REUSEPORT group it alone reads (udp-socket.c). */
typedef struct {
  server_t *s;
  int fd;
  int cpu;     /* the CPU it runs on, or -1: any */
  int spin_us; /* how long it polls an empty socket before it sleeps in recvmmsg (udp-receive.c receive) */
} reader_t;

struct server {
  /* fds[0] also sends what JavaScript answered. */
  int fds[MAX_THREADS];
  int nthreads;
  pthread_t threads[MAX_THREADS];
  reader_t readers[MAX_THREADS];
  atomic_int stop;
  napi_threadsafe_function misses;
  pthread_rwlock_t lock;
  entry_t *slots;
  uint32_t entries;
  atomic_ulong hits, missed, dropped;
  unsigned long cleared; /* entries removed by clearZones (under the write lock) */
  rrl_t rrl;
  int closed;
};

typedef struct {
  struct sockaddr_storage from;
  socklen_t fromlen;
  uint32_t len;
  uint8_t data[];
} miss_t;

#define CHECK(call) do { if ((call) != napi_ok) { napi_throw_error(env, "EINVAL", "udp-fast: bad arguments"); return NULL; } } while (0)

/* The reply cache (udp-calls.c); the caller holds the lock where it says. */
uint64_t fnv1a(const uint8_t *p, size_t n);
uint32_t find_slot(server_t *s, const uint8_t *key, size_t klen, uint64_t h);
void clear_cache(server_t *s);
uint32_t clear_zones(server_t *s, const uint64_t *zones, uint32_t n);
int cacheable(const uint8_t *q, size_t n);
/* Hashes a received batch into hs[] and prefetches what its look-ups will read; caller holds the read lock. */
void prefetch_batch(server_t *s, struct mmsghdr *rmsg, struct iovec *riov, int n, uint64_t *hs);

/* A receive thread's loop (udp-receive.c); arg: its reader_t. */
void *receive_loop(void *arg);

/* N-API helpers and calls (udp-calls.c). */
server_t *unwrap(napi_env env, napi_value v);
server_t *handle_arg(napi_env env, napi_callback_info info);
napi_value throw_errno(napi_env env, const char *what, int err);
int key_arg(napi_env env, napi_value v, uint64_t *key);
napi_value js_port(napi_env env, napi_callback_info info);
napi_value js_store(napi_env env, napi_callback_info info);
napi_value js_clear(napi_env env, napi_callback_info info);
napi_value js_clear_zones(napi_env env, napi_callback_info info);
napi_value js_rate_limit(napi_env env, napi_callback_info info);
napi_value js_tick(napi_env env, napi_callback_info info);
napi_value js_stats(napi_env env, napi_callback_info info);

#endif
