/*
 * The receive threads' loop (issue 32): a batch in with recvmmsg(2), the
 * questions the reply cache holds answered (udp-calls.c), the others
 * handed to JavaScript, the answers out with sendmmsg(2). udp-fast.c
 * starts the threads and has the picture.
 */
#include "udp-fast.h"

static long elapsed_us(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (t.tv_sec - t0->tv_sec) * 1000000L + (t.tv_nsec - t0->tv_nsec) / 1000;
}

/*
 * The next batch. With spin_us > 0 (VIGIL_DNS_SPIN_US; 0, off, by default)
 * the thread first polls its socket without sleeping, yielding the CPU
 * between polls, for at most spin_us: tried in issue 32 to spare the
 * load generator the wake-ups of a sleeping server, and not kept. With
 * the server on a core of its own under dnsperf (docs/performance.md,
 * "Name server"), 50 us cut the receive thread's voluntary switches from
 * 1,273 to 51 in 4 s, and gave 0.99x the q/s (dnsperf's core is the
 * limit) for 6% more CPU per query, median of 5 alternating rounds. Then
 * it sleeps in recvmmsg until one datagram comes (MSG_WAITFORONE: and
 * takes what else is queued by then).
 */
static int receive(int fd, struct mmsghdr *rmsg, int spin_us) {
  if (spin_us > 0) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
      int n = recvmmsg(fd, rmsg, BATCH, MSG_DONTWAIT, NULL);
      if (n > 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) return n;
      sched_yield(); /* anything else runnable on this CPU (dnsperf, when they share it) goes first */
    } while (elapsed_us(&t0) < spin_us);
  }
  return recvmmsg(fd, rmsg, BATCH, MSG_WAITFORONE, NULL);
}

void *receive_loop(void *arg) {
  reader_t *reader = arg;
  server_t *s = reader->s;
  int fd = reader->fd;
  uint8_t *in = malloc((size_t)BATCH * RECV_SIZE);
  uint8_t *out = malloc((size_t)BATCH * MAX_REPLY);
  struct mmsghdr rmsg[BATCH], smsg[BATCH];
  struct iovec riov[BATCH], siov[BATCH];
  struct sockaddr_storage from[BATCH];
  uint64_t hs[BATCH];
  if (!in || !out) goto done;
  /* Set up once: the kernel only writes msg_len, msg_namelen and msg_flags back, reset below for what it used. */
  memset(rmsg, 0, sizeof rmsg);
  memset(smsg, 0, sizeof smsg);
  for (int i = 0; i < BATCH; i++) {
    riov[i].iov_base = in + (size_t)i * RECV_SIZE;
    riov[i].iov_len = RECV_SIZE;
    rmsg[i].msg_hdr.msg_iov = &riov[i];
    rmsg[i].msg_hdr.msg_iovlen = 1;
    rmsg[i].msg_hdr.msg_name = &from[i];
    rmsg[i].msg_hdr.msg_namelen = sizeof from[i];
    siov[i].iov_base = out + (size_t)i * MAX_REPLY;
    smsg[i].msg_hdr.msg_iov = &siov[i];
    smsg[i].msg_hdr.msg_iovlen = 1;
  }
  while (!atomic_load(&s->stop)) {
    int n = receive(fd, rmsg, reader->spin_us);
    if (n <= 0) continue; /* timeout, EINTR, or shutdown: the loop checks stop */
    int nout = 0, nhit = 0;
    pthread_rwlock_rdlock(&s->lock);
    prefetch_batch(s, rmsg, riov, n, hs);
    for (int i = 0; i < n; i++) {
      const uint8_t *q = riov[i].iov_base;
      size_t len = rmsg[i].msg_len;
      socklen_t namelen = rmsg[i].msg_hdr.msg_namelen;
      rmsg[i].msg_hdr.msg_namelen = sizeof from[i];
      if (rmsg[i].msg_hdr.msg_flags & MSG_TRUNC) {
        atomic_fetch_add(&s->dropped, 1);
        continue;
      }
      if (cacheable(q, len)) {
        entry_t *e = &s->slots[find_slot(s, q + 2, len - 2, hs[i])];
        if (e->bytes) {
          nhit++;
          int verdict = rrl_check(&s->rrl, &from[i], e->rrl);
          if (verdict == RRL_DROP) continue;
          uint8_t *r = siov[nout].iov_base;
          size_t rlen = e->rlen;
          if (verdict == RRL_SLIP) rlen = rrl_slip(e->bytes + e->klen, e->rlen, r);
          else memcpy(r, e->bytes + e->klen, e->rlen);
          r[0] = q[0], r[1] = q[1];
          siov[nout].iov_len = rlen;
          smsg[nout].msg_hdr.msg_name = &from[i];
          smsg[nout].msg_hdr.msg_namelen = namelen;
          nout++;
          continue;
        }
      }
      miss_t *m = malloc(sizeof(miss_t) + len);
      if (!m) continue;
      memcpy(&m->from, &from[i], namelen);
      m->fromlen = namelen;
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
      int k = sendmmsg(fd, smsg + sent, nout - sent, 0);
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

