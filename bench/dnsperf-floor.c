/*
 * The kernel's floor under dnsperf (issue 32): a UDP "server" that does no
 * DNS work at all. It reads datagrams the way Vigil's receive threads do
 * (recvmmsg, batches of 64, one SO_REUSEPORT socket per thread, steered to
 * the socket of the receiving CPU) and sends back, with one sendmmsg per
 * batch, each query turned into a fixed answer: the header with QR and AA
 * set, the question as it came, and one A record 192.0.2.1 by a pointer to
 * the question's name. No lookup, no cache, no parsing beyond the name.
 *
 * What it is for: every name server on this machine pays at least what
 * this program pays per query (two system calls a batch, the route lookup
 * of each unconnected reply, loopback delivery into dnsperf's sockets), so
 * its q/s and CPU per query bound what any server can reach here, C or not.
 * The benches (dnsperf.ts) run it in the same rounds as Vigil and the peers
 * and print floor / best peer: a goal above that ratio is out of reach for
 * every server on this kernel.
 *
 *   cc -O2 -pthread -o floor dnsperf-floor.c && ./floor 127.0.0.1 PORT THREADS
 *
 * Bench code only: never built into Vigil, never started by the tests.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BATCH 64
#define SIZE 512

#ifndef SO_ATTACH_REUSEPORT_CBPF
#define SO_ATTACH_REUSEPORT_CBPF 51
#endif

static struct sockaddr_in addr;
static unsigned threads;

/* The answer to `q` (len bytes) in `r`, or 0 when it is not a one-question query we can echo. */
static size_t answer(const uint8_t *q, size_t len, uint8_t *r) {
  if (len < 12 || (q[2] & 0x80) || q[4] != 0 || q[5] != 1) return 0;
  size_t i = 12;
  while (i < len && q[i] != 0) i += (size_t)q[i] + 1; /* labels; a pointer in a query is not expected */
  i += 5;                                              /* the root label, QTYPE, QCLASS */
  if (i > len || i + 16 > SIZE) return 0;
  memcpy(r, q, i);
  r[2] = (uint8_t)(0x84 | (q[2] & 0x01)); /* QR, AA, RD as asked */
  r[3] = 0;                               /* RA off, NOERROR */
  r[6] = 0, r[7] = 1;                     /* one answer */
  r[8] = r[9] = r[10] = r[11] = 0;
  static const uint8_t rr[16] = {0xc0, 12, 0, 1, 0, 1, 0, 0, 0x0e, 0x10, 0, 4, 192, 0, 2, 1};
  memcpy(r + i, rr, sizeof rr);
  return i + sizeof rr;
}

static int open_socket(void) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0), one = 1, buf = 4 << 20;
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof buf);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
    perror("bind");
    exit(1);
  }
  if (threads > 1) { /* as Vigil's STEER_CPU: the socket of the CPU that received the datagram */
    struct sock_filter code[] = {{BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)(SKF_AD_OFF + SKF_AD_CPU)},
                                 {BPF_ALU | BPF_MOD | BPF_K, 0, 0, threads},
                                 {BPF_RET | BPF_A, 0, 0, 0}};
    struct sock_fprog prog = {3, code};
    setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof prog);
  }
  return fd;
}

static void *loop(void *arg) {
  int fd = (int)(intptr_t)arg;
  static __thread uint8_t in[BATCH][SIZE], out[BATCH][SIZE];
  struct mmsghdr rmsg[BATCH], smsg[BATCH];
  struct iovec riov[BATCH], siov[BATCH];
  struct sockaddr_in from[BATCH];
  memset(rmsg, 0, sizeof rmsg);
  memset(smsg, 0, sizeof smsg);
  for (int i = 0; i < BATCH; i++) {
    riov[i] = (struct iovec){in[i], SIZE};
    rmsg[i].msg_hdr.msg_iov = &riov[i], rmsg[i].msg_hdr.msg_iovlen = 1;
    siov[i].iov_base = out[i];
    smsg[i].msg_hdr.msg_iov = &siov[i], smsg[i].msg_hdr.msg_iovlen = 1;
  }
  for (;;) {
    for (int i = 0; i < BATCH; i++) rmsg[i].msg_hdr.msg_name = &from[i], rmsg[i].msg_hdr.msg_namelen = sizeof from[i];
    int n = recvmmsg(fd, rmsg, BATCH, MSG_WAITFORONE, NULL), k = 0;
    for (int i = 0; i < n; i++) {
      size_t len = answer(in[i], rmsg[i].msg_len, out[k]);
      if (!len) continue;
      siov[k].iov_len = len;
      smsg[k].msg_hdr.msg_name = &from[i], smsg[k].msg_hdr.msg_namelen = rmsg[i].msg_hdr.msg_namelen;
      k++;
    }
    for (int sent = 0; sent < k;) {
      int m = sendmmsg(fd, smsg + sent, (unsigned)(k - sent), 0);
      sent += m > 0 ? m : 1;
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s ADDRESS PORT THREADS\n", argv[0]);
    return 2;
  }
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)atoi(argv[2]));
  if (inet_pton(AF_INET, argv[1], &addr.sin_addr) != 1) return 2;
  threads = (unsigned)atoi(argv[3]);
  if (threads < 1) threads = 1;
  int fds[64];
  for (unsigned t = 0; t < threads && t < 64; t++) fds[t] = open_socket();
  pthread_t tid;
  for (unsigned t = 1; t < threads && t < 64; t++) pthread_create(&tid, NULL, loop, (void *)(intptr_t)fds[t]);
  loop((void *)(intptr_t)fds[0]);
  return 0;
}
