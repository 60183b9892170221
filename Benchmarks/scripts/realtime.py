"""Whether live map sync stays real time while `carousel serve` works hard.

N live sessions on one list each swipe to the next card as a person does
(12 frames over 200 ms at 60 fps, from one card's rest offset to the
next's), then wait for the camera that follows the swipe: the server
debounces the focus for 250 ms after the last frame, so the camera is due
250 ms after that frame was sent. Its lateness is when it arrived minus
that; a swipe whose camera has not come within 5 s counts as missing.
Then a pause of 100-300 ms, and the next swipe (back at the list's end).

Beside the sessions, a load of the server's heaviest work, in threads of
their own with plain HTTP:
  imports: two loops of POST /lists/IMPORT/import?replace=true (the body a
           CSV file, a write token), again at once when one ends, after a
           second on a 503;
  reads:   two loops of GET /lists/CLUSTERS/clusters over the world at
           zooms 2-12 in turn, and GET /stores/search?list=CLUSTERS&q=san.

    python3 realtime.py BASE --list L --sessions 100 --seconds 20 --load none|imports|reads|both
        [--import-list W2 --import-file FILE --token T] [--clusters-list WORLD]

Prints one JSON object: swipes, cameras, missing, lateness p50/p99/max (ms),
and per load loop the requests done and their mean seconds.
"""
import argparse
import os
import asyncio
import http.client
import json
import random
import statistics
import threading
import time
import urllib.parse

import websockets

REST = 312  # groupPagingCentered, 300-pt cards 12 pt apart: card i rests at 312 i
FRAMES = 12
FRAME = 1 / 60
DEBOUNCE = 0.250
GIVE_UP = 5.0


async def session(url, cards, seconds, seed, results, start):
    rng = random.Random(seed)
    async with websockets.connect(url, max_size=1 << 20, ping_interval=None) as socket:
        await socket.send(json.dumps({"layout": {"viewport": 390, "itemLength": 300, "spacing": 12,
                                                 "behavior": "groupPagingCentered"}}))
        index = 0
        cameras = asyncio.Queue()

        async def reader():
            async for text in socket:
                message = json.loads(text)
                if message.get("type") == "camera":
                    await cameras.put((time.monotonic(), message.get("index")))

        reading = asyncio.create_task(reader())
        # The load's camera.
        await asyncio.wait_for(cameras.get(), 30)
        await start.wait()
        done = time.monotonic() + seconds
        step = 1
        while time.monotonic() < done:
            if not 0 <= index + step < cards:
                step = -step
            target = index + step
            for frame in range(1, FRAMES + 1):
                offset = REST * index + (REST * (target - index)) * frame / FRAMES
                await socket.send(json.dumps({"offset": offset}))
                if frame < FRAMES:
                    await asyncio.sleep(FRAME)
            last_frame = time.monotonic()
            results["swipes"] += 1
            try:
                while True:
                    arrived, camera_index = await asyncio.wait_for(cameras.get(), GIVE_UP)
                    if camera_index == target:
                        break
                results["lateness"].append((arrived - last_frame - DEBOUNCE) * 1000)
            except asyncio.TimeoutError:
                results["missing"] += 1
            index = target
            await asyncio.sleep(rng.uniform(0.1, 0.3))
        reading.cancel()


def request(base, method, path, token=None, body_file=None):
    """One HTTP request; its status."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
    headers = {}
    if token:
        headers["Authorization"] = "Bearer " + token
    try:
        if body_file:
            with open(body_file, "rb") as body:
                headers["Content-Type"] = "text/csv"
                headers["Content-Length"] = str(os.path.getsize(body_file))
                connection.request(method, path, body=body, headers=headers)
        else:
            connection.request(method, path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def loop(name, base, paths, stop, tallies, token=None, body_file=None, method="GET"):
    turn = 0
    while not stop.is_set():
        path = paths[turn % len(paths)]
        turn += 1
        began = time.monotonic()
        try:
            status = request(base, method, path, token, body_file)
        except OSError:
            status = 0
        took = time.monotonic() - began
        tally = tallies.setdefault(name, {"done": 0, "refused": 0, "failed": 0, "seconds": []})
        if status == 200:
            tally["done"] += 1
            tally["seconds"].append(took)
        elif status == 503:
            tally["refused"] += 1
            stop.wait(1)
        else:
            tally["failed"] += 1
            stop.wait(0.1)


async def main_async(args):
    ws_base = args.base.replace("http://", "ws://")
    url = f"{ws_base}/lists/{args.list}/session"
    results = {"swipes": 0, "missing": 0, "lateness": []}
    start = asyncio.Event()
    tasks = [asyncio.create_task(session(url, args.cards, args.seconds, seed, results, start))
             for seed in range(args.sessions)]
    # All connected and loaded before the clock starts.
    await asyncio.sleep(min(30, 1 + args.sessions / 50))
    stop = threading.Event()
    tallies = {}
    threads = []
    if args.load in ("imports", "both"):
        path = f"/lists/{args.import_list}/import?format=csv&replace=true"
        for n in range(2):
            threads.append(threading.Thread(target=loop, args=(f"import-{n}", args.base, [path], stop, tallies),
                                            kwargs={"token": args.token, "body_file": args.import_file, "method": "POST"}))
    if args.load in ("reads", "both"):
        world = "south=-85&west=-180&north=85&east=180"
        clusters = [f"/lists/{args.clusters_list}/clusters?zoom={z}&{world}" for z in range(2, 13)]
        search = [f"/stores/search?list={args.clusters_list}&q=san"]
        for n in range(2):
            threads.append(threading.Thread(target=loop, args=(f"clusters-{n}", args.base, clusters, stop, tallies)))
            threads.append(threading.Thread(target=loop, args=(f"search-{n}", args.base, search, stop, tallies)))
    for thread in threads:
        thread.start()
    start.set()
    began = time.monotonic()
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - began
    stop.set()
    for thread in threads:
        thread.join(timeout=900)
    lateness = sorted(results["lateness"])

    def percentile(p):
        return lateness[min(len(lateness) - 1, int(p * len(lateness)))] if lateness else None

    loads = {}
    for name, tally in tallies.items():
        kind = name.split("-")[0]
        merged = loads.setdefault(kind, {"done": 0, "refused": 0, "failed": 0, "seconds": []})
        for key in ("done", "refused", "failed"):
            merged[key] += tally[key]
        merged["seconds"] += tally["seconds"]
    print(json.dumps({
        "sessions": args.sessions, "load": args.load, "seconds": round(elapsed, 1),
        "swipes": results["swipes"], "cameras": len(lateness), "missing": results["missing"],
        "lateness_ms": {"p50": percentile(0.5), "p99": percentile(0.99), "max": lateness[-1] if lateness else None},
        "loads": {kind: {"done": t["done"], "refused": t["refused"], "failed": t["failed"],
                         "per_second": round(t["done"] / elapsed, 2),
                         "mean_seconds": round(statistics.mean(t["seconds"]), 3) if t["seconds"] else None}
                  for kind, t in loads.items()},
    }))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base", help="http://127.0.0.1:PORT")
    parser.add_argument("--list", required=True, help="the list the sessions swipe")
    parser.add_argument("--cards", type=int, default=44, help="how many stores the list holds")
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--load", choices=["none", "imports", "reads", "both"], default="none")
    parser.add_argument("--import-list", default="w2")
    parser.add_argument("--import-file")
    parser.add_argument("--token")
    parser.add_argument("--clusters-list", default="world")
    args = parser.parse_args()
    if args.load in ("imports", "both") and not (args.import_file and args.token):
        parser.error("--load imports needs --import-file and --token")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
