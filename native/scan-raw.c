/*
 * The scanner's raw sockets (native/scan.c has the connect probes):
 * - ICMP echo and timestamp requests for host discovery: a raw socket where
 *   the process has CAP_NET_RAW, else a Linux ICMP datagram socket where
 *   net.ipv4.ping_group_range admits its group, else none. IPv6 addresses
 *   get an ICMPv6 echo (type 128, RFC 4443 §4.1; there is no timestamp
 *   request) the same way: the one sysctl governs both families' datagram
 *   sockets (net/ipv6/ping.c reads net.ipv4's). An ICMPv6 raw socket hands
 *   over the message without the IP header, computes the checksum itself
 *   (RFC 3542 §3.1) and sees every ICMPv6 message of the host (neighbour
 *   discovery too), so a filter lets echo replies through only (§3.2).
 * - SYN probes (nmap's -sS) where the process has CAP_NET_RAW: a SYN from
 *   one of 64 source ports of ours, each SYN the next (so a retry is a new
 *   connection, never a second SYN into the half-open one its first try
 *   left on the target, which Linux drops: tcp_check_req), the answer read from a raw TCP socket (SYN-ACK
 *   open, RST closed); the kernel, having no socket on that port, answers a
 *   SYN-ACK with a RST, so no connection is ever completed. No socket(2),
 *   connect(2) and close(2) per port: on loopback that was most of a
 *   connect scan's kernel time (nmap -sS 0.4 s sys vs -sT 0.87 s, 1-65535).
 *   The sequence number carries the probe's slot, so an answer names its
 *   probe (its ACK is our sequence + 1), and a slot remembers host and port
 *   so a late answer to an older probe in the same slot is not taken.
 */
#include "scan.h"
#include <linux/filter.h>
#include <netinet/icmp6.h>
#include <netinet/tcp.h>
#include <sys/random.h>

/*
 * A slot's sequence number is spread over the 32 bits (an odd multiplier, inverted mod 2^32), not slot ^
 * secret: two probes of the same port from the same source port had sequence numbers a few thousand apart,
 * inside the receive window of the half-open connection the first left on the target, and Linux answers such
 * a SYN with a RST (tcp_check_req, embryonic_reset): bench/wan.ts saw open ports called closed.
 */
#define SPREAD 0x9E3779B1u
#define UNSPREAD 0x0E8B2F51u

/*
 * Opens `*fd` once, polled under `tag`: a raw socket of `proto`, else a datagram ("ping") one.
 * -> 2 raw, 1 datagram socket, 0 none. ICMP and ICMPv6 alike.
 */
int ping_open(Scan *s, int family, int proto, uint32_t tag, int *fd, int *raw) {
  if (*fd < 0) {
    *fd = socket(family, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, proto);
    *raw = *fd >= 0;
    if (*fd < 0) *fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, proto);
    if (*fd < 0) return 0;
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = tag};
    epoll_ctl(s->ep, EPOLL_CTL_ADD, *fd, &ev);
  }
  return *raw ? 2 : 1;
}

/* icmp(handle, family = 4): ICMP, or ICMPv6 for 6 -> 2 raw, 1 datagram socket, 0 none */
napi_value js_icmp(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t family = 4;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scan *s = unwrap(env, argv[0]);
  if (!s) return NULL;
  if (argc > 1) CHECK(napi_get_value_int32(env, argv[1], &family));
  if (family != 6) return num(env, ping_open(s, AF_INET, IPPROTO_ICMP, ICMP_TAG, &s->icmp, &s->icmp_raw));
  int mode = ping_open(s, AF_INET6, IPPROTO_ICMPV6, ICMP6_TAG, &s->icmp6, &s->icmp6_raw);
  if (mode == 2) {
    /* A raw ICMPv6 socket sees neighbour discovery and router adverts too: echo replies only (RFC 3542 §3.2). */
    struct icmp6_filter f;
    ICMP6_FILTER_SETBLOCKALL(&f);
    ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &f);
    setsockopt(s->icmp6, IPPROTO_ICMPV6, ICMP6_FILTER, &f, sizeof f);
  }
  return num(env, mode);
}

static uint16_t checksum(const void *p, size_t n) {
  const uint8_t *b = p;
  uint32_t sum = 0;
  for (size_t i = 0; i + 1 < n; i += 2) sum += (uint32_t)(b[i] << 8 | b[i + 1]);
  if (n & 1) sum += (uint32_t)(b[n - 1] << 8);
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return htons((uint16_t)~sum);
}

/* An echo header: type, our identifier, and the host index as sequence number, so a reply names its host. */
void echo_header(Scan *s, uint8_t *pkt, int type, int host) {
  pkt[0] = (uint8_t)type;
  uint16_t id = htons(s->ping_ident), seq = htons((uint16_t)host);
  memcpy(pkt + 4, &id, 2);
  memcpy(pkt + 6, &seq, 2);
}

/* The host an echo reply names, or -1: out of range, or another process's (a raw socket sees every reply). */
int echo_host(Scan *s, const uint8_t *icmp, int raw) {
  uint16_t id, seq;
  memcpy(&id, icmp + 4, 2);
  memcpy(&seq, icmp + 6, 2);
  if (raw && ntohs(id) != s->ping_ident) return -1;
  return ntohs(seq) < s->nhosts ? ntohs(seq) : -1;
}

/* ping(handle, host, kind): kind 8 echo, 13 timestamp; -> 0 sent, -errno. An IPv6 host gets an ICMPv6 echo. */
napi_value js_ping(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t host, kind;
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scan *s = unwrap(env, argv[0]);
  if (!s) return NULL;
  CHECK(napi_get_value_int32(env, argv[1], &host));
  CHECK(napi_get_value_int32(env, argv[2], &kind));
  if (host >= 0 && host < s->nhosts && s->hosts[host].ss_family == AF_INET6)
    return num(env, kind == ICMP_ECHO ? ping6(s, host) : -EINVAL);
  if (s->icmp < 0 || host < 0 || host >= s->nhosts || s->hosts[host].ss_family != AF_INET) return num(env, -EINVAL);
  uint8_t pkt[20] = {0};
  size_t len = kind == ICMP_TIMESTAMP ? 20 : 8;
  echo_header(s, pkt, kind, host);
  uint16_t sum = checksum(pkt, len);
  memcpy(pkt + 2, &sum, 2);
  struct sockaddr_in to = *(struct sockaddr_in *)&s->hosts[host];
  to.sin_port = 0;
  if (sendto(s->icmp, pkt, len, 0, (struct sockaddr *)&to, sizeof to) < 0) return num(env, -errno);
  return num(env, 0);
}

/* An echo request to IPv6 host `host`; 0 sent, -errno. The sequence number carries the host index. */
int ping6(Scan *s, int host) {
  if (s->icmp6 < 0) return -EINVAL;
  uint8_t pkt[8] = {0};
  echo_header(s, pkt, ICMP6_ECHO_REQUEST, host);
  struct sockaddr_in6 to = *(struct sockaddr_in6 *)&s->hosts[host];
  to.sin6_port = 0;
  if (sendto(s->icmp6, pkt, sizeof pkt, 0, (struct sockaddr *)&to, sizeof to) < 0) return -errno;
  return 0;
}

/*
 * Reads every queued reply of the ICMP (v6 = 0) or ICMPv6 socket (v6 = 1): (-1 - host, type) for an echo
 * or timestamp reply (ICMPv6: echo reply, 129) from that host.
 */
int icmp_reply(Scan *s, int v6, int32_t *out, int room) {
  uint8_t buf[1500];
  struct sockaddr_storage from;
  int fd = v6 ? s->icmp6 : s->icmp, raw = v6 ? s->icmp6_raw : s->icmp_raw, k = 0;
  while (k < room) {
    socklen_t fl = sizeof from;
    ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
    if (n < 0) break;
    /* A raw IPv4 socket hands over the IP header too; an ICMPv6 one does not (RFC 3542 §3). */
    size_t ihl = raw && !v6 ? (size_t)(buf[0] & 0x0f) * 4 : 0;
    if ((size_t)n < ihl + 8) continue;
    uint8_t *icmp = buf + ihl;
    if (v6 ? icmp[0] != ICMP6_ECHO_REPLY : icmp[0] != ICMP_ECHOREPLY && icmp[0] != ICMP_TIMESTAMPREPLY) continue;
    int host = echo_host(s, icmp, raw);
    if (host < 0 || s->hosts[host].ss_family != from.ss_family) continue;
    int same = v6 ? !memcmp(&((struct sockaddr_in6 *)&s->hosts[host])->sin6_addr,
                            &((struct sockaddr_in6 *)&from)->sin6_addr, sizeof(struct in6_addr))
                  : ((struct sockaddr_in *)&s->hosts[host])->sin_addr.s_addr ==
                        ((struct sockaddr_in *)&from)->sin_addr.s_addr;
    if (!same) continue;
    out[2 * k] = -1 - host;
    out[2 * k + 1] = icmp[0];
    k++;
  }
  return k;
}


/* Our source address toward `host` (what the kernel will put in the IP header), for the TCP checksum. */
void raw_host(Scan *s, int host) {
  struct sockaddr_in *to = (struct sockaddr_in *)&s->hosts[host];
  s->syn_src[host] = 0;
  if (to->sin_family != AF_INET) return;
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in dst = *to, me;
  socklen_t ml = sizeof me;
  dst.sin_port = htons(9);
  if (fd >= 0 && connect(fd, (struct sockaddr *)&dst, sizeof dst) == 0 && getsockname(fd, (struct sockaddr *)&me, &ml) == 0)
    s->syn_src[host] = me.sin_addr.s_addr;
  if (fd >= 0) close(fd);
}

/* synOpen(handle) -> 1 when SYN probes can be sent (CAP_NET_RAW), else 0 */
napi_value js_syn_open(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Scan *s = unwrap(env, argv[0]);
  if (!s) return NULL;
  if (s->syn >= 0) return num(env, 1);
  s->syn = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
  if (s->syn < 0) return num(env, 0);
  /* Answers come in bursts (a RST per closed port): room for tens of thousands. */
  int size = 32 << 20;
  setsockopt(s->syn, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size);
  uint16_t port;
  if (getrandom(&port, sizeof port, 0) != sizeof port || getrandom(&s->syn_secret, 4, 0) != 4) port = (uint16_t)getpid();
  /* Source ports outside Linux's default ephemeral range (32768-60999), so no socket of ours shares them. */
  s->syn_port = (uint16_t)(61000 + port % (4500 - SYN_PORTS));
  /* A raw TCP socket is handed a copy of every TCP segment the host receives; the kernel keeps only
   * those to our port (classic BPF: X = IP header length, A = destination port). */
  struct sock_filter code[] = {
      BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),
      BPF_STMT(BPF_LD | BPF_H | BPF_IND, 2),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, s->syn_port, 0, 2),
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, s->syn_port + SYN_PORTS, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, 0xffff),
      BPF_STMT(BPF_RET | BPF_K, 0),
  };
  struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
  setsockopt(s->syn, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog);
  struct epoll_event ev = {.events = EPOLLIN, .data.u32 = SYN_TAG};
  epoll_ctl(s->ep, EPOLL_CTL_ADD, s->syn, &ev);
  return num(env, 1);
}

/* syn(handle, slot, host, port) -> 1 sent (in flight), -errno */
napi_value js_syn(napi_env env, napi_callback_info info) {
  int32_t slot, host, port;
  Scan *s = probe_args(env, info, &slot, &host, &port);
  if (!s) return NULL;
  if (s->syn < 0 || slot < 0 || !s->syn_src[host]) return num(env, -EINVAL);
  struct sockaddr_in to = *(struct sockaddr_in *)&s->hosts[host];
  uint8_t pkt[12 + 24];
  uint8_t *tcp = pkt + 12;
  memset(pkt, 0, sizeof pkt);
  /* Pseudo-header (RFC 793 §3.1) for the checksum: source, destination, zero, protocol, TCP length. */
  memcpy(pkt, &s->syn_src[host], 4);
  memcpy(pkt + 4, &to.sin_addr.s_addr, 4);
  pkt[9] = IPPROTO_TCP;
  pkt[11] = 24;
  int source = s->syn_port + (int)(s->syn_sent++ % SYN_PORTS);
  uint16_t sport = htons((uint16_t)source), dport = htons((uint16_t)port);
  uint32_t seq = htonl(((uint32_t)slot * SPREAD) ^ s->syn_secret);
  memcpy(tcp, &sport, 2);
  memcpy(tcp + 2, &dport, 2);
  memcpy(tcp + 4, &seq, 4);
  tcp[12] = 6 << 4; /* 24-byte header: the MSS option, as a real SYN carries */
  tcp[13] = 0x02;   /* SYN */
  tcp[14] = 0x04;   /* window 1024 */
  tcp[20] = 2, tcp[21] = 4, tcp[22] = 0x05, tcp[23] = 0xb4; /* MSS 1460 */
  uint16_t sum = checksum(pkt, sizeof pkt);
  memcpy(tcp + 16, &sum, 2);
  to.sin_port = 0;
  if (sendto(s->syn, tcp, 24, 0, (struct sockaddr *)&to, sizeof to) < 0) return num(env, -errno);
  s->slot_host[slot] = host;
  s->slot_port[slot] = port;
  s->slot_sport[slot] = source;
  return num(env, 1);
}

/* Reads the queued answers to our SYNs: (slot, 0) for a SYN-ACK (open), (slot, -ECONNREFUSED) for a RST. */
int syn_reply(Scan *s, int32_t *out, int room) {
  uint8_t buf[256];
  int k = 0;
  while (k < room) {
    ssize_t n = recv(s->syn, buf, sizeof buf, 0);
    if (n < 0) break;
    size_t ihl = (size_t)(buf[0] & 0x0f) * 4;
    if ((size_t)n < ihl + 20 || buf[9] != IPPROTO_TCP) continue;
    const uint8_t *tcp = buf + ihl;
    uint16_t sport, dport;
    uint32_t ack, src;
    memcpy(&sport, tcp, 2);
    memcpy(&dport, tcp + 2, 2);
    memcpy(&ack, tcp + 8, 4);
    memcpy(&src, buf + 12, 4);
    if (ntohs(dport) < s->syn_port || ntohs(dport) >= s->syn_port + SYN_PORTS) continue;
    uint8_t flags = tcp[13];
    if (!(flags & 0x10) || !(flags & 0x06)) continue; /* an ACK with SYN or RST */
    uint32_t slot = ((ntohl(ack) - 1) ^ s->syn_secret) * UNSPREAD;
    if (slot >= (uint32_t)s->cap || s->slot_port[slot] != ntohs(sport) || s->slot_sport[slot] != ntohs(dport)) continue;
    struct sockaddr_in *h = (struct sockaddr_in *)&s->hosts[s->slot_host[slot]];
    if (h->sin_addr.s_addr != src) continue;
    s->slot_host[slot] = s->slot_port[slot] = s->slot_sport[slot] = -1;
    out[2 * k] = (int32_t)slot;
    out[2 * k + 1] = (flags & 0x02) ? 0 : -ECONNREFUSED;
    k++;
  }
  return k;
}
