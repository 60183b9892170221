/*
 * session-floor: the floor of the sessions ramp on this machine.
 *
 * A WebSocket server that does the least any server of live sessions can
 * do: one epoll loop a core, each connection's bytes read once, and every
 * client frame answered at once by a fixed camera line and a fixed marker
 * line (the sizes of `carousel serve`'s, from a real session on the
 * places list) in one write. No view model, no JSON, no allocation a
 * frame. What it holds under the ramp's 50 ms p99 is what the kernel's
 * loopback, the client and these two cores allow; `carousel-bench
 * --server-part sessions` runs it first, beside the same client, and
 * reports our server's sessions as a share of it.
 *
 * Not a WebSocket server for anything else: it does not check the
 * handshake's key (the ramp's client does not check the answer's accept),
 * and it closes a connection on anything it does not expect (an unmasked
 * frame, a 64-bit length, a buffer overrun).
 *
 * Build: cc -O2 -pthread -o session-floor session-floor.c
 * Run:   session-floor [THREADS]   (default: one a core)
 * It binds 127.0.0.1 on a port the kernel picks and prints
 * "listening PORT" on stdout.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define IN_CAP 8192
#define OUT_CAP 65536

static const char switching[] =
    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n";

/* A session's answer to a frame, as `carousel serve` sends it: a camera
 * line (108 bytes) and a marker line (75 bytes), each a text frame. */
static const char camera[] =
    "{\"t\":1.859409,\"type\":\"camera\",\"index\":1,\"storeId\":\"gn38\",\"latitude\":32.13928,\"longitude\":48.49952,\"zoom\":16}";
static const char marker[] = "{\"t\":1.868172,\"type\":\"marker\",\"index\":1,\"storeId\":\"gn38\",\"previousIndex\":0}";
static unsigned char answer[2 + sizeof camera - 1 + 2 + sizeof marker - 1];

struct connection {
    int fd;
    int epoll;
    int switched;
    int watching_out;
    size_t in_len;
    size_t out_len;
    unsigned char in[IN_CAP];
    unsigned char out[OUT_CAP];
};

static void build_answer(void) {
    size_t at = 0;
    answer[at++] = 0x81;
    answer[at++] = (unsigned char)(sizeof camera - 1);
    memcpy(answer + at, camera, sizeof camera - 1);
    at += sizeof camera - 1;
    answer[at++] = 0x81;
    answer[at++] = (unsigned char)(sizeof marker - 1);
    memcpy(answer + at, marker, sizeof marker - 1);
}

static void drop(struct connection *c) {
    epoll_ctl(c->epoll, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c);
}

static int queue_out(struct connection *c, const void *bytes, size_t length) {
    if (c->out_len + length > OUT_CAP) return -1;
    memcpy(c->out + c->out_len, bytes, length);
    c->out_len += length;
    return 0;
}

/* Writes what is queued; waits for EPOLLOUT only when the socket is full. */
static int flush_out(struct connection *c) {
    size_t sent = 0;
    while (sent < c->out_len) {
        ssize_t n = write(c->fd, c->out + sent, c->out_len - sent);
        if (n > 0) {
            sent += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            break;
        } else {
            return -1;
        }
    }
    memmove(c->out, c->out + sent, c->out_len - sent);
    c->out_len -= sent;
    int watch = c->out_len > 0;
    if (watch == c->watching_out) return 0;
    c->watching_out = watch;
    struct epoll_event event = {.events = EPOLLIN | (watch ? EPOLLOUT : 0), .data.ptr = c};
    return epoll_ctl(c->epoll, EPOLL_CTL_MOD, c->fd, &event);
}

/* Consumes the handshake and every whole frame read; -1 closes. */
static int handle_input(struct connection *c) {
    size_t at = 0;
    if (!c->switched) {
        void *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
        if (!end) return c->in_len == IN_CAP ? -1 : 0;
        at = (size_t)((unsigned char *)end - c->in) + 4;
        c->switched = 1;
        if (queue_out(c, switching, sizeof switching - 1)) return -1;
    }
    while (c->in_len - at >= 2) {
        unsigned char opcode = c->in[at] & 0x0F, second = c->in[at + 1];
        if (!(second & 0x80)) return -1; /* a client's frames are masked (RFC 6455 §5.3) */
        size_t length = second & 0x7F, header = 2 + 4;
        if (length == 127) return -1;
        if (length == 126) {
            if (c->in_len - at < 4) break;
            length = ((size_t)c->in[at + 2] << 8) | c->in[at + 3];
            header += 2;
        }
        if (header + length > IN_CAP) return -1;
        if (c->in_len - at < header + length) break;
        at += header + length;
        if (opcode == 0x8) return -1;
        if (opcode == 0x1 || opcode == 0x2) {
            if (queue_out(c, answer, sizeof answer)) return -1;
        }
    }
    memmove(c->in, c->in + at, c->in_len - at);
    c->in_len -= at;
    return 0;
}

static void *serve(void *argument) {
    int epoll = *(int *)argument;
    struct epoll_event events[256];
    for (;;) {
        int count = epoll_wait(epoll, events, 256, -1);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) return NULL;
        for (int i = 0; i < count; i++) {
            struct connection *c = events[i].data.ptr;
            int failed = 0;
            if (events[i].events & EPOLLIN) {
                /* One read an event: the epoll is level-triggered, so what
                 * is left is reported again, and a frame costs one read
                 * rather than a second that finds nothing. */
                ssize_t n = read(c->fd, c->in + c->in_len, IN_CAP - c->in_len);
                if (n > 0) {
                    c->in_len += (size_t)n;
                    failed = handle_input(c) != 0;
                } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                    failed = 1;
                }
            }
            if (!failed && (c->out_len || (events[i].events & EPOLLOUT))) failed = flush_out(c) != 0;
            if (failed || (events[i].events & (EPOLLHUP | EPOLLERR))) drop(c);
        }
    }
}

int main(int argc, char **argv) {
    long threads = argc > 1 ? strtol(argv[1], NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1 || threads > 64) {
        fprintf(stderr, "session-floor: THREADS must be 1...64\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    build_answer();
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 4096) ||
        getsockname(listener, (struct sockaddr *)&address, &size)) {
        perror("session-floor");
        return 1;
    }
    int epolls[64];
    pthread_t workers[64];
    for (long i = 0; i < threads; i++) {
        epolls[i] = epoll_create1(0);
        if (epolls[i] < 0 || pthread_create(&workers[i], NULL, serve, &epolls[i])) {
            perror("session-floor");
            return 1;
        }
    }
    printf("listening %d\n", ntohs(address.sin_port));
    fflush(stdout);
    for (unsigned long next = 0;; next++) {
        int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EMFILE || errno == ENFILE) {
                usleep(10000); /* out of descriptors: wait for closes */
                continue;
            }
            perror("session-floor: accept");
            return 1;
        }
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct connection *c = calloc(1, sizeof *c);
        if (!c) {
            close(fd);
            continue;
        }
        c->fd = fd;
        c->epoll = epolls[next % (unsigned long)threads];
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
        if (epoll_ctl(c->epoll, EPOLL_CTL_ADD, fd, &event)) drop(c);
    }
}
