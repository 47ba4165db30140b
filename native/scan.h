/* Shared by scan.c (TCP connect probes) and scan-raw.c (ICMP, ICMPv6, SYN probes). */
#ifndef VIGIL_SCAN_H
#define VIGIL_SCAN_H
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <node_api.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>


#define MAX_HOSTS 65536
#define ICMP_TAG 0xffffffffu
#define SYN_TAG 0xfffffffeu
#define ICMP6_TAG 0xfffffffdu
#define SYN_PORTS 64
#define SELF_CONNECT (-4242)

typedef struct {
  int ep;
  int cap;
  int *fd;        /* per slot, -1 when free */
  int nhosts;
  struct sockaddr_storage *hosts;
  int icmp;       /* -1: none */
  int icmp_raw;   /* 1: raw socket (IP header in front of replies) */
  uint16_t ping_ident;
  int icmp6;      /* -1: none */
  int icmp6_raw;  /* 1: raw socket */
  /* SYN probes (scan-raw.c): a raw TCP socket, our source port, and per slot what was sent. */
  int syn;        /* -1: none */
  uint16_t syn_port;   /* the first of SYN_PORTS source ports */
  uint32_t syn_sent;   /* SYNs sent: each takes the next source port */
  uint32_t syn_secret;
  uint32_t *syn_src; /* per host: our source address toward it (the checksum's pseudo-header) */
  int32_t *slot_host, *slot_port, *slot_sport; /* per slot, -1 when nothing is waiting */
} Scan;

#define CHECK(call) \
  do { if ((call) != napi_ok) { napi_throw_error(env, NULL, #call " failed"); return NULL; } } while (0)


Scan *unwrap(napi_env env, napi_value v);
Scan *probe_args(napi_env env, napi_callback_info info, int32_t *slot, int32_t *host, int32_t *port);
napi_value num(napi_env env, int v);
int icmp_reply(Scan *s, int v6, int32_t *out, int room);
int ping6(Scan *s, int host);
void echo_header(Scan *s, uint8_t *pkt, int type, int host);
int echo_host(Scan *s, const uint8_t *icmp, int raw);
int ping_open(Scan *s, int family, int proto, uint32_t tag, int *fd, int *raw);
int syn_reply(Scan *s, int32_t *out, int room);
void raw_host(Scan *s, int host);
napi_value js_icmp(napi_env env, napi_callback_info info);
napi_value js_ping(napi_env env, napi_callback_info info);
napi_value js_syn_open(napi_env env, napi_callback_info info);
napi_value js_syn(napi_env env, napi_callback_info info);

#endif
