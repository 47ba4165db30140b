/*
 * The name server's UDP sockets (issue 32): one per receive thread, all
 * bound to one address with SO_REUSEPORT, so each thread reads its own
 * queue and no two threads contend for one socket's lock.
 *
 * Which socket of the group gets a datagram: by default the kernel hashes
 * the 4-tuple, so dnsperf's 8 client ports land unevenly (measured: one
 * of two workers did twice the other's work, docs/performance.md). A
 * classic BPF program on the group (SO_ATTACH_REUSEPORT_CBPF) chooses
 * instead:
 *   STEER_CPU: the socket of the CPU that received the datagram, modulo
 *     the group's size: a NIC's receive queue spreads the load, and the
 *     thread reading that socket runs where the packet is warm;
 *   STEER_RANDOM: a random socket: an even spread whatever the senders.
 * Sockets are numbered in the order they joined the group, so the
 * program needs the group's size: every worker process binds the same
 * number of sockets and attaches the same program.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "udp-socket.h"

#ifndef SO_ATTACH_REUSEPORT_CBPF
#define SO_ATTACH_REUSEPORT_CBPF 51
#endif

int parse_address(const char *host, int port, struct sockaddr_storage *sa, socklen_t *len) {
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

/* A = (cpu or random) % group; return A. */
static int attach_steering(int fd, int steer, unsigned group) {
  struct sock_filter code[] = {
      {BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)(SKF_AD_OFF + (steer == STEER_CPU ? SKF_AD_CPU : SKF_AD_RANDOM))},
      {BPF_ALU | BPF_MOD | BPF_K, 0, 0, group},
      {BPF_RET | BPF_A, 0, 0, 0},
  };
  struct sock_fprog prog = {sizeof code / sizeof code[0], code};
  return setsockopt(fd, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &prog, sizeof prog);
}

int open_udp_socket(const struct sockaddr_storage *sa, socklen_t salen, int rcvbuf, int steer, unsigned group) {
  int fd = socket(sa->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  int one = 1;
  struct timeval tv = {0, 250000}; /* receive threads look at the stop flag at least this often */
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (sa->ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind(fd, (const struct sockaddr *)sa, salen) < 0) {
    int err = errno;
    close(fd);
    return -err;
  }
  /* After bind: the program belongs to the group the bind joined. A kernel without it keeps the hash. */
  if (steer != STEER_HASH && group > 1) attach_steering(fd, steer, group);
  return fd;
}
