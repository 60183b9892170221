/*
 * session-load: one step of the sessions ramp from a client that costs the
 * machine as little as a client can, so that the ramp measures the server.
 *
 * The same protocol and measure as the ramp's NIO client (SessionLoad.swift)
 * and Benchmarks/scripts/sessions.py: SESSIONS WebSocket sessions on
 * ws://127.0.0.1:PORT/PATH, each sending a layout with debounceMs 0, then
 * (once every session has its first camera and marker) a frame every 1/60 s
 * for SECONDS, alternating between cards 1 and 0, so that every frame is
 * answered at once by a camera and a marker. The latency is from sending a
 * frame to reading its camera; a frame never answered counts as infinite.
 *
 * One thread, one epoll, a periodic timerfd: every session's frame of a
 * tick is sent at the tick, and a late tick does not push the next ones
 * back (each expiry the timer counts is a tick). Frames are encoded and
 * masked once (RFC 6455 §5.3: a client's frames are masked; the key is
 * fixed, as the server only checks that there is one).
 *
 * Prints one line: "frames N unanswered U p99 MS client US", US being
 * the client's own CPU (user + system, getrusage) from the first frame to
 * the last answer, a frame: what the machine's cores give the client
 * rather than the server.
 *
 * Build: cc -O2 -o session-load session-load.c
 * Run:   session-load PORT PATH SESSIONS SECONDS
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define IN_CAP 8192
#define PENDING 1024 /* frames a session may have in flight: 17 s at 60 fps */

static const char layout[] =
    "{\"layout\":{\"viewport\":390,\"itemLength\":300,\"spacing\":12,\"behavior\":\"groupPagingCentered\",\"debounceMs\":0}}";
/* Card 0's offset, then card 1's: the first frame sent is the second. */
static const char *offsets[2] = {"{\"offset\":0}", "{\"offset\":312}"};

struct session {
    int fd;
    int switched;
    int lines_before_ready; /* the load's camera and marker */
    unsigned frame;
    size_t in_len;
    unsigned pending_head, pending_count;
    double pending[PENDING]; /* send times of frames not yet answered */
    unsigned char in[IN_CAP];
};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static size_t masked_frame(unsigned char *out, const char *text) {
    static const unsigned char key[4] = {0x37, 0xFA, 0x21, 0x3D};
    size_t length = strlen(text);
    out[0] = 0x81;
    out[1] = (unsigned char)(0x80 | length);
    memcpy(out + 2, key, 4);
    for (size_t i = 0; i < length; i++) out[6 + i] = (unsigned char)text[i] ^ key[i % 4];
    return 6 + length;
}

static double *latencies;
static size_t latency_count, latency_cap, swiping;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

/* Reads what came; counts a camera against the oldest frame in flight. */
static int read_session(struct session *s) {
    ssize_t n = read(s->fd, s->in + s->in_len, IN_CAP - s->in_len);
    if (n == 0) return -1;
    if (n < 0) return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    s->in_len += (size_t)n;
    size_t at = 0;
    if (!s->switched) {
        unsigned char *end = memmem(s->in, s->in_len, "\r\n\r\n", 4);
        if (!end) return s->in_len == IN_CAP ? -1 : 0;
        if (memcmp(s->in, "HTTP/1.1 101", 12) != 0) return -1;
        at = (size_t)(end - s->in) + 4;
        s->switched = 1;
    }
    double received = now();
    while (s->in_len - at >= 2) {
        size_t length = s->in[at + 1] & 0x7F, header = 2;
        if (length == 127) return -1;
        if (length == 126) {
            if (s->in_len - at < 4) break;
            length = ((size_t)s->in[at + 2] << 8) | s->in[at + 3];
            header = 4;
        }
        if (header + length > IN_CAP) return -1;
        if (s->in_len - at < header + length) break;
        const unsigned char *payload = s->in + at + header;
        at += header + length;
        if (s->lines_before_ready > 0) {
            s->lines_before_ready--;
        } else if (swiping && s->pending_count > 0 && memmem(payload, length, "\"type\":\"camera\"", 15)) {
            if (latency_count == latency_cap) {
                latency_cap = latency_cap ? latency_cap * 2 : 1 << 16;
                latencies = realloc(latencies, latency_cap * sizeof *latencies);
                if (!latencies) fail("session-load");
            }
            latencies[latency_count++] = received - s->pending[s->pending_head];
            s->pending_head = (s->pending_head + 1) % PENDING;
            s->pending_count--;
        }
    }
    memmove(s->in, s->in + at, s->in_len - at);
    s->in_len -= at;
    return 0;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
           (double)usage.ru_stime.tv_usec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: session-load PORT PATH SESSIONS SECONDS\n");
        return 2;
    }
    long port = strtol(argv[1], NULL, 10), count = strtol(argv[3], NULL, 10);
    double seconds = strtod(argv[4], NULL);
    if (port < 1 || port > 65535 || count < 1 || count > 100000 || !(seconds > 0 && seconds <= 3600)) {
        fprintf(stderr, "session-load: PORT 1...65535, SESSIONS 1...100000, SECONDS (0, 3600]\n");
        return 2;
    }
    char request[1024];
    int head = snprintf(request, sizeof request,
                        "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%ld\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
                        argv[2], port);
    if (head < 0 || (size_t)head + 128 > sizeof request) {
        fprintf(stderr, "session-load: PATH is too long\n");
        return 2;
    }
    size_t request_length = (size_t)head + masked_frame((unsigned char *)request + head, layout);
    unsigned char frames[2][64];
    size_t frame_lengths[2] = {masked_frame(frames[0], offsets[0]), masked_frame(frames[1], offsets[1])};

    /* A descriptor a session, past a soft limit of 1024. */
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    struct session *sessions = calloc((size_t)count, sizeof *sessions);
    int epoll = epoll_create1(0);
    if (!sessions || epoll < 0) fail("session-load");
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    for (long i = 0; i < count; i++) {
        struct session *s = &sessions[i];
        s->fd = socket(AF_INET, SOCK_STREAM, 0);
        if (s->fd < 0 || connect(s->fd, (struct sockaddr *)&address, sizeof address)) fail("session-load: connect");
        setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (write(s->fd, request, request_length) != (ssize_t)request_length) fail("session-load: handshake");
        s->lines_before_ready = 2;
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = s};
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, s->fd, &event)) fail("session-load");
    }
    /* Every session switched, with its first camera and marker (bounded: 30 s). */
    struct epoll_event events[512];
    long ready = 0;
    for (double deadline = now() + 30; ready < count;) {
        if (now() > deadline) {
            fprintf(stderr, "session-load: %ld of %ld sessions ready after 30 s\n", ready, count);
            return 1;
        }
        int n = epoll_wait(epoll, events, 512, 1000);
        for (int i = 0; i < n; i++) {
            struct session *s = events[i].data.ptr;
            int before = s->lines_before_ready;
            if (read_session(s)) {
                fprintf(stderr, "session-load: the server closed a session before it was ready\n");
                return 1;
            }
            if (before > 0 && s->lines_before_ready == 0) ready++;
        }
    }

    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct itimerspec every = {.it_interval = {0, 1000000000L / 60}, .it_value = start};
    if (timer < 0 || timerfd_settime(timer, TFD_TIMER_ABSTIME, &every, NULL)) fail("session-load: timer");
    struct epoll_event timer_event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll, EPOLL_CTL_ADD, timer, &timer_event);
    swiping = 1;
    double cpu_start = cpu_seconds();
    long ticks_due = (long)(seconds * 60), ticks = 0;
    size_t sent = 0, overrun = 0;
    double end = 0;
    for (;;) {
        if (ticks == ticks_due && end == 0) end = now() + 0.2; /* until every frame's last answer could have come */
        if (end != 0 && now() >= end) break;
        int n = epoll_wait(epoll, events, 512, end != 0 ? 10 : -1);
        for (int i = 0; i < n; i++) {
            struct session *s = events[i].data.ptr;
            if (s == NULL) {
                uint64_t expired = 0;
                if (read(timer, &expired, sizeof expired) != sizeof expired) continue;
                for (uint64_t tick = 0; tick < expired && ticks < ticks_due; tick++, ticks++) {
                    for (long j = 0; j < count; j++) {
                        struct session *t = &sessions[j];
                        t->frame++;
                        size_t length = frame_lengths[t->frame % 2];
                        double at = now();
                        if (write(t->fd, frames[t->frame % 2], length) != (ssize_t)length) fail("session-load: frame");
                        sent++;
                        if (t->pending_count == PENDING) {
                            overrun++; /* the oldest is given up: counted unanswered */
                            t->pending_head = (t->pending_head + 1) % PENDING;
                            t->pending_count--;
                        }
                        t->pending[(t->pending_head + t->pending_count) % PENDING] = at;
                        t->pending_count++;
                    }
                }
                if (ticks == ticks_due) epoll_ctl(epoll, EPOLL_CTL_DEL, timer, NULL);
            } else if (read_session(s)) {
                fprintf(stderr, "session-load: the server closed a session\n");
                return 1;
            }
        }
    }
    double cpu = cpu_seconds() - cpu_start;
    size_t unanswered = overrun;
    for (long i = 0; i < count; i++) unanswered += sessions[i].pending_count;
    qsort(latencies, latency_count, sizeof *latencies, compare);
    size_t total = latency_count + unanswered;
    size_t rank = (size_t)(0.99 * (double)total);
    if (rank >= total) rank = total - 1;
    /* Unanswered frames sort last, as infinite. */
    if (total == 0 || rank >= latency_count) {
        printf("frames %zu unanswered %zu p99 inf", sent, unanswered);
    } else {
        printf("frames %zu unanswered %zu p99 %.3f", sent, unanswered, latencies[rank] * 1000);
    }
    printf(" client %.1f\n", sent ? cpu / (double)sent * 1e6 : 0.0);
    return 0;
}
