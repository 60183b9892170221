"""How many live sessions `carousel serve` holds at 60 frames per second each
before the 99th percentile of frame-to-message latency passes a bound.

Each session sends `{"layout": {..., "debounceMs": 0}}`, then a frame every
1/60 s alternating between cards 0 and 1, so every frame changes the focus
and (debounce 0, distinct) is answered at once by a camera and a marker
line: the latency is from sending the frame to receiving its camera line.
The number of sessions doubles (then bisects) until p99 passes the bound.

    python3 sessions.py WS_URL [--bound-ms 50] [--seconds 5] [--max 2048]
    python3 sessions.py WS_URL --once 160 --seconds 8 --server-pid PID

Prints one line per step, then `sessions: N` (the most that met the bound).
With `--once N`, runs one step of N sessions and no ramp; with
`--server-pid`, each step also prints the server's CPU time (user +
system, from /proc/PID/stat) over the step, and per frame sent.

The client shares the machine with the server, so it does as little as it
can per message: the two frames are encoded once, a line's type is found
by its text (the server writes compact JSON, `"type":"camera"`), and the
event loop is uvloop's when it is installed (scripts/benchmark installs it).
"""
import argparse
import asyncio
import os
import json
import time

import websockets

LAYOUT = json.dumps({"layout": {"viewport": 390, "itemLength": 300, "spacing": 12,
                                "behavior": "groupPagingCentered", "debounceMs": 0}})
FRAME = 1 / 60
# The frames alternate between card 1 and card 0.
FRAMES = [json.dumps({"offset": 0}), json.dumps({"offset": 312})]
CAMERA = '"type":"camera"'

try:
    import uvloop
    run = uvloop.run
except ImportError:
    run = asyncio.run


async def session(url, seconds, latencies, ready, start):
    async with websockets.connect(url, max_size=1 << 16, ping_interval=None) as socket:
        await socket.send(LAYOUT)
        await socket.recv()  # the load's camera
        await socket.recv()  # and marker
        ready.release()
        await start.wait()
        sent = []
        done = time.monotonic() + seconds

        async def reader():
            while True:
                message = await socket.recv()
                if CAMERA in message and sent:
                    latencies.append(time.monotonic() - sent.pop(0))

        task = asyncio.create_task(reader())
        frame = 0
        next_at = time.monotonic()
        while time.monotonic() < done:
            frame += 1
            sent.append(time.monotonic())
            await socket.send(FRAMES[frame % 2])
            next_at += FRAME
            await asyncio.sleep(max(0, next_at - time.monotonic()))
        await asyncio.sleep(0.2)
        task.cancel()
        # Frames never answered count as over the bound.
        latencies.extend([float("inf")] * len(sent))


async def step(url, count, seconds):
    latencies = []
    ready = asyncio.Semaphore(0)
    start = asyncio.Event()
    tasks = [asyncio.create_task(session(url, seconds, latencies, ready, start)) for _ in range(count)]
    for _ in range(count):
        await asyncio.wait_for(ready.acquire(), 30)
    start.set()
    await asyncio.gather(*tasks)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000 if latencies else float("inf")
    return p99, len(latencies)


def server_cpu(pid):
    """The process's user + system CPU seconds so far (0 without a pid)."""
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--bound-ms", type=float, default=50)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--max", type=int, default=2048)
    parser.add_argument("--start", type=int, default=8)
    parser.add_argument("--once", type=int, help="one step of this many sessions, no ramp")
    parser.add_argument("--server-pid", type=int, help="print this process's CPU time per step and per frame")
    args = parser.parse_args()
    if args.once is not None and not 1 <= args.once <= args.max:
        parser.error(f"--once takes a number of sessions from 1 to --max ({args.max})")
    if args.server_pid is not None:
        try:
            server_cpu(args.server_pid)
        except (OSError, ValueError, IndexError):
            parser.error(f"--server-pid {args.server_pid}: no such process to read /proc/PID/stat of")
    good, bad, count = 0, None, args.once or args.start
    for _ in range(16):  # bounded: doubling, then bisecting
        before = server_cpu(args.server_pid)
        p99, frames = run(step(args.url, count, args.seconds))
        line = f"step: {count} sessions, {frames} frames, p99 {p99:.1f} ms"
        if args.server_pid is not None:
            cpu = server_cpu(args.server_pid) - before
            line += f", server CPU {cpu:.2f} s, {cpu / max(frames, 1) * 1e6:.1f} us a frame"
        print(line, flush=True)
        if args.once is not None:
            return
        if p99 <= args.bound_ms:
            good = count
        else:
            bad = count
        if bad is None:
            if count >= args.max:
                break
            count = min(count * 2, args.max)
        else:
            if bad - good <= max(1, good // 8):
                break
            count = (good + bad) // 2
    print(f"sessions: {good}")


if __name__ == "__main__":
    main()
