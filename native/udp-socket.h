#ifndef VIGIL_UDP_SOCKET_H
#define VIGIL_UDP_SOCKET_H
#include <sys/socket.h>

/* How the kernel picks the socket of the SO_REUSEPORT group for a datagram (udp-socket.c). */
enum { STEER_HASH = 0, STEER_CPU = 1, STEER_RANDOM = 2 };

/* host:port into sa; the address family, or -1 when host is no address. */
int parse_address(const char *host, int port, struct sockaddr_storage *sa, socklen_t *len);
/* A bound SO_REUSEPORT UDP socket of a group of `group` sockets steered by `steer`; -errno on failure. */
int open_udp_socket(const struct sockaddr_storage *sa, socklen_t salen, int rcvbuf, int steer, unsigned group);

#endif
