/*
 * A userspace WAN between two network namespaces (bench/wan.ts and the
 * netns scan test): one TUN device in each, every IPv4 packet read from one
 * is written to the other after a delay, with jitter, random loss, and
 * per-host rules. Nothing is routed anywhere else: the namespaces have no
 * other interface and no default route (wan/netns.ts checks and prints).
 *
 *   tunfwd NS_A TUN_A NS_B TUN_B DELAY_MS JITTER_MS LOSS RULES
 *
 * DELAY_MS is one way (RTT = 2 × DELAY_MS); jitter is uniform in
 * ±JITTER_MS; LOSS is a probability per packet and direction. RULES, comma
 * separated, apply to packets from A (the scanner) to B (the targets):
 *   f:IP:PORT   drop TCP to that port (a filtered port)
 *   d:IP        drop ICMP to that host (ping-deaf)
 *   o:IP:P1/P2  drop everything to that host except TCP to P1, P2, ...
 * Prints "ready" once both devices exist.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_RULES 512
#define MAX_QUEUE 200000

typedef struct { uint32_t ip; int kind; int nports; uint16_t ports[16]; } Rule;
typedef struct { double due; int to; int len; uint8_t *data; } Pkt;

static Rule rules[MAX_RULES];
static int nrules;
static Pkt heap[MAX_QUEUE];
static int nheap;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void push(Pkt p) {
  int i = nheap++;
  while (i > 0 && heap[(i - 1) / 2].due > p.due) heap[i] = heap[(i - 1) / 2], i = (i - 1) / 2;
  heap[i] = p;
}

static Pkt pop(void) {
  Pkt top = heap[0], last = heap[--nheap];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= nheap) break;
    if (c + 1 < nheap && heap[c + 1].due < heap[c].due) c++;
    if (heap[c].due >= last.due) break;
    heap[i] = heap[c];
    i = c;
  }
  if (nheap) heap[i] = last;
  return top;
}

static int open_tun(const char *ns, const char *name) {
  int nsfd = open(ns, O_RDONLY | O_CLOEXEC);
  if (nsfd < 0 || setns(nsfd, CLONE_NEWNET) < 0) { perror(ns); exit(1); }
  close(nsfd);
  int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
  if (fd < 0) { perror("/dev/net/tun"); exit(1); }
  struct ifreq ifr;
  memset(&ifr, 0, sizeof ifr);
  ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
  strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
  if (ioctl(fd, TUNSETIFF, &ifr) < 0) { perror("TUNSETIFF"); exit(1); }
  fcntl(fd, F_SETFL, O_NONBLOCK);
  return fd;
}

static void parse_rules(char *text) {
  for (char *r = strtok(text, ","); r && nrules < MAX_RULES; r = strtok(NULL, ",")) {
    Rule *x = &rules[nrules];
    char kind = r[0], *ip = r + 2, *rest = strchr(ip, ':');
    if (rest) *rest++ = 0;
    if (inet_pton(AF_INET, ip, &x->ip) != 1) continue;
    x->kind = kind;
    while (rest && *rest && x->nports < 16) {
      x->ports[x->nports++] = (uint16_t)strtol(rest, &rest, 10);
      if (*rest == '/') rest++;
    }
    nrules++;
  }
}

/* Whether a packet from the scanner to the targets is dropped by a rule. */
static int ruled_out(const uint8_t *p, int len) {
  if (len < 20 || (p[0] >> 4) != 4) return 0;
  uint32_t dst;
  memcpy(&dst, p + 16, 4);
  int proto = p[9], ihl = (p[0] & 15) * 4;
  int port = proto == 6 && len >= ihl + 4 ? (p[ihl + 2] << 8 | p[ihl + 3]) : -1;
  for (int i = 0; i < nrules; i++) {
    Rule *r = &rules[i];
    if (r->ip != dst) continue;
    if (r->kind == 'f' && port >= 0 && r->nports && r->ports[0] == port) return 1;
    if (r->kind == 'd' && proto == 1) return 1;
    if (r->kind == 'o') {
      int keep = 0;
      for (int k = 0; k < r->nports; k++) keep |= port >= 0 && r->ports[k] == port;
      if (!keep) return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 8) {
    fprintf(stderr, "usage: tunfwd NS_A TUN_A NS_B TUN_B DELAY_MS JITTER_MS LOSS [RULES]\n");
    return 2;
  }
  int fd[2] = {open_tun(argv[1], argv[2]), open_tun(argv[3], argv[4])};
  double delay = atof(argv[5]), jitter = atof(argv[6]), loss = atof(argv[7]);
  if (argc > 8) parse_rules(argv[8]);
  srand48((long)now_ms());
  signal(SIGPIPE, SIG_IGN);
  printf("ready\n");
  fflush(stdout);
  uint8_t buf[65536];
  for (;;) {
    double t = now_ms();
    while (nheap && heap[0].due <= t) {
      Pkt p = pop();
      if (write(fd[p.to], p.data, (size_t)p.len) < 0) { /* the device's queue is full: a loss */ }
      free(p.data);
    }
    int wait = nheap ? (int)(heap[0].due - t) + 1 : 1000;
    struct pollfd pf[2] = {{fd[0], POLLIN, 0}, {fd[1], POLLIN, 0}};
    if (poll(pf, 2, wait < 0 ? 0 : wait) < 0) continue;
    for (int side = 0; side < 2; side++) {
      if (!(pf[side].revents & POLLIN)) continue;
      for (int n = 0; n < 256; n++) {
        ssize_t len = read(fd[side], buf, sizeof buf);
        if (len <= 0) break;
        if (loss > 0 && drand48() < loss) continue;
        if (side == 0 && ruled_out(buf, (int)len)) continue;
        if (nheap >= MAX_QUEUE) continue; /* queue overflow: congestion loss */
        Pkt p = {now_ms() + delay + (jitter > 0 ? (drand48() * 2 - 1) * jitter : 0), 1 - side, (int)len, malloc((size_t)len)};
        memcpy(p.data, buf, (size_t)len);
        push(p);
      }
    }
  }
}
