#!/usr/bin/env python3
"""The outside probe of issue 42, replayed against a live `carousel serve`.

    scripts/probe-security.py --carousel BIN --db DB [--tmp DIR]

DB is a SQLite path (made here) or a postgres:// URL of an empty database.
Every row of the probe's table is tried as the attacker tried it, and must
answer as the table's last column says; so must the probe's other results
(no token bypass, no SQL injection, no smuggling, no memory growth under
300 connections). Prints one line per check; exits 1 if any failed.
Only the standard library: raw sockets, ssl, and the openssl command.
"""
import argparse, json, os, re, shutil, signal, socket, ssl, stat, struct, subprocess, sys, tempfile, time

failures = 0


def check(ok, name, detail=""):
    global failures
    if ok:
        print(f"probe-security: ok: {name}", file=sys.stderr)
    else:
        failures += 1
        print(f"probe-security: FAIL: {name}: {detail}"[:600], file=sys.stderr)


class Server:
    """`carousel serve` on 127.0.0.1, any free port, logging JSON to a file."""

    def __init__(self, carousel, db, work, *extra, env=None, tmpdir=None):
        self.log_path = os.path.join(work, f"server-{time.time_ns()}.log")
        self.log = open(self.log_path, "w")
        environment = dict(os.environ, **(env or {}))
        if tmpdir:
            environment["TMPDIR"] = tmpdir
        self.process = subprocess.Popen(
            [carousel, "serve", "--db", db, "--host", "127.0.0.1", "--port", "0", "--log-format", "json", *extra],
            stdout=self.log, stderr=self.log, env=environment)
        self.port = None
        for _ in range(400):
            text = open(self.log_path).read()
            found = re.search(r"on https?://127\.0\.0\.1:(\d+)/", text)
            if found:
                self.port = int(found.group(1))
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        if self.port is None:
            raise SystemExit(f"probe-security: the server did not start: {open(self.log_path).read()[:500]}")

    def lines(self):
        entries = []
        for line in open(self.log_path):
            try:
                entries.append(json.loads(line))
            except ValueError:
                pass
        return entries

    def rss_kib(self):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def exchange(port, data, timeout=5.0, tls=False):
    """Sends `data`, reads one response (or until close/timeout): (status, headers, body bytes)."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock = raw
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        sock = context.wrap_socket(raw)
    try:
        sock.sendall(data if isinstance(data, bytes) else data.encode())
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (socket.timeout, ConnectionResetError, ssl.SSLError):
                break
            if not chunk:
                break
            received += chunk
            status, headers, body = parse(received)
            if status and "content-length" in headers and len(body) >= int(headers["content-length"]):
                break
            if status == 101:
                break
        return parse(received)
    finally:
        sock.close()


def parse(received):
    if b"\r\n\r\n" not in received:
        return 0, {}, b""
    head, body = received.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ")[1])
    except (IndexError, ValueError):
        return 0, {}, b""
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return status, headers, body


def error_code(body):
    try:
        return json.loads(body)["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return None


def get(path, port, headers=(), method="GET", body=None):
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", *[f"{n}: {v}" for n, v in headers], "Connection: close"]
    if body is not None:
        lines.append(f"Content-Length: {len(body.encode())}")
    return exchange(port, "\r\n".join(lines) + "\r\n\r\n" + (body or ""))


UPGRADE = ("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n")


def upgrade_text(port, path="/lists/seoul/session", extra=""):
    return UPGRADE.format(path=path, port=port, extra=extra)


class Session:
    """A session over a raw socket: frames sent masked or not, the server's frames read."""

    def __init__(self, port, path="/lists/seoul/session"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(upgrade_text(port, path).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                break
            head += chunk
        self.status = parse(head)[0]
        self.buffer = b""

    def send(self, opcode, payload, masked=True):
        frame = bytes([0x80 | opcode])
        mask = 0x80 if masked else 0
        frame += bytes([mask | len(payload)]) if len(payload) < 126 else bytes([mask | 126]) + struct.pack(">H", len(payload))
        if masked:
            key = b"\x12\x34\x56\x78"
            frame += key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        else:
            frame += payload
        self.sock.sendall(frame)

    def frames(self, seconds):
        """The server's frames until `seconds` of quiet, or a close frame."""
        self.sock.settimeout(seconds)
        frames = []
        while True:
            while len(self.buffer) >= 2:
                length, offset = self.buffer[1] & 0x7F, 2
                if length == 126:
                    if len(self.buffer) < 4:
                        break
                    length, offset = struct.unpack(">H", self.buffer[2:4])[0], 4
                elif length == 127:
                    if len(self.buffer) < 10:
                        break
                    length, offset = struct.unpack(">Q", self.buffer[2:10])[0], 10
                if len(self.buffer) < offset + length:
                    break
                frames.append((self.buffer[0] & 0x0F, self.buffer[offset:offset + length]))
                self.buffer = self.buffer[offset + length:]
            if any(opcode == 8 for opcode, _ in frames):
                return frames
            try:
                chunk = self.sock.recv(65536)
            except (socket.timeout, ConnectionResetError):
                return frames
            if not chunk:
                return frames
            self.buffer += chunk

    def close_code(self, seconds=10):
        for opcode, payload in self.frames(seconds):
            if opcode == 8 and len(payload) >= 2:
                return struct.unpack(">H", payload[:2])[0]
        return None

    def close(self):
        self.sock.close()


def openssl_handshake(port, *arguments):
    """Whether `openssl s_client` completes a handshake with these arguments."""
    result = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}", *arguments],
                            input=b"", capture_output=True, timeout=20)
    text = result.stdout.decode("latin-1", "replace")
    cipher = re.search(r"Cipher is (\S+)", text)
    return cipher is not None and cipher.group(1) != "(NONE)", text


def carousel_run(carousel, *arguments, env=None):
    return subprocess.run([carousel, *arguments], capture_output=True, text=True, timeout=120, env=dict(os.environ, **(env or {})))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--carousel", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--sample", default="SampleData/seoul-coffee.csv")
    options = parser.parse_args()
    carousel, db = options.carousel, options.db
    postgres = db.startswith("postgres")
    kind = "PostgreSQL" if postgres else "SQLite"
    work = tempfile.mkdtemp(prefix="carousel-probe-security-")
    os.umask(0o022)
    if not postgres:
        db = os.path.join(work, "catalog.sqlite")
    try:
        run = carousel_run(carousel, "import", options.sample, "--list", "seoul", "--db", db)
        check(run.returncode == 0, f"{kind}: import the sample", run.stderr)
        writer = carousel_run(carousel, "tokens", "create", "writer", "--scope", "write", "--db", db).stdout.strip()
        reader = carousel_run(carousel, "tokens", "create", "reader", "--scope", "read", "--db", db).stdout.strip()
        probe(carousel, db, kind, postgres, work, writer, reader)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"probe-security: {kind}: {failures} failed", file=sys.stderr)
        sys.exit(1)
    print(f"probe-security: {kind}: every check passed", file=sys.stderr)


def probe(carousel, db, kind, postgres, work, writer, reader):
    # 14. File modes (SQLite): the catalog and its -wal/-shm hold token hashes.
    if not postgres:
        for suffix in ["", "-wal", "-shm"]:
            path = db + suffix
            if os.path.exists(path):
                mode = stat.S_IMODE(os.stat(path).st_mode)
                check(mode == 0o600, f"{kind} 14: {os.path.basename(path)} is 0600 under umask 022", oct(mode))

    spool = os.path.join(work, "spool")
    os.mkdir(spool)
    server = Server(carousel, db, work, "--rate-limit", "1000", tmpdir=spool)
    port = server.port
    auth = ("Authorization", f"Bearer {writer}")
    try:
        # 4 and 12. NUL, numbers, instants: 400, never 500 or a wrong 200.
        for path in ["/lists/se%00oul/stores", "/stores/seoul/hc-001%00", "/stores/near?lat=37.5&lng=127&list=seoul%00",
                     "/stores/near?lat=37.5%00garbage&lng=127", "/stores/search?list=seoul&q=%00",
                     "/stores/search?list=seoul&openAt=2026-11-28T13:30:00%2B99:00",
                     "/stores/search?list=seoul&openAt=99999-11-28T13:30:00Z", "/stores/near?lat=0x1p3&lng=127"]:
            status, _, body = get(path, port)
            check(status == 400, f"{kind} 4/12: GET {path} is 400", f"{status} {body[:200]!r}")
        rows = "id,name,latitude,longitude\na,A,37.5,127\nb,B\x00x,37.5,127\n"
        status, _, body = get("/lists/nul/import?format=csv", port, [auth, ("Content-Type", "text/csv")], "POST", rows)
        lines = [issue.get("line") for issue in (json.loads(body or b"{}").get("error", {}).get("report", {}).get("errors", []))] if status == 422 else []
        check(status == 422 and lines == [3], f"{kind} 4: a NUL in a CSV field is the row issue of line 3", f"{status} {body[:300]!r}")

        # 5. Broken chunk framing in /simulate: 400.
        head = f"POST /simulate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        for body in ["10000000000000028\r\n" + "x" * 40 + "\r\n0\r\n\r\n", "-28\r\n" + "x" * 40 + "\r\n0\r\n\r\n", "2\n{}\n0\n\n"]:
            status, _, answer = exchange(port, head + body)
            check(status == 400 and error_code(answer) == "bad_request", f"{kind} 5: chunked {body[:12]!r} is 400", f"{status} {answer[:200]!r}")

        # 6. Handshake errors: a JSON error, in the log and the metrics.
        for name, text, want in [
            ("version 8", upgrade_text(port).replace("Version: 13", "Version: 8"), 426),
            ("no key", upgrade_text(port).replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", ""), 400),
            ("no version", upgrade_text(port).replace("Sec-WebSocket-Version: 13\r\n", ""), 400),
            ("Upgrade: h2c", upgrade_text(port).replace("Upgrade: websocket", "Upgrade: h2c"), 400),
            ("a POST", upgrade_text(port).replace("GET ", "POST ").replace("\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n"), 400),
        ]:
            status, _, answer = exchange(port, text)
            check(status == want and error_code(answer) is not None, f"{kind} 6: an upgrade with {name} is {want} with a JSON error", f"{status} {answer[:200]!r}")

        # 7. RFC 6455: unmasked 1002, not UTF-8 1007, two Origins refused.
        session = Session(port)
        session.send(1, b'{"tapMarker":1}', masked=False)
        code = session.close_code()
        session.close()
        check(code == 1002, f"{kind} 7: an unmasked frame closes 1002", str(code))
        session = Session(port)
        session.send(1, b"{\xc3\x28}")
        code = session.close_code()
        session.close()
        check(code == 1007, f"{kind} 7: text that is not UTF-8 closes 1007", str(code))
        status, _, answer = exchange(port, upgrade_text(port, extra=f"Origin: http://127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n"))
        check(status == 400, f"{kind} 7: a second Origin is refused", f"{status} {answer[:200]!r}")

        # 10. HEAD as GET without the body.
        for path in ["/healthz", "/", "/lists", "/openapi.json", "/metrics"]:
            status, headers, body = get(path, port, method="HEAD")
            check(status == 200 and body == b"", f"{kind} 10: HEAD {path} is 200 without a body", f"{status} {len(body)} bytes")

        # 11. Host and codings.
        status, _, _ = exchange(port, "GET /lists HTTP/1.1\r\nConnection: close\r\n\r\n")
        check(status == 400, f"{kind} 11: HTTP/1.1 without Host is 400", str(status))
        status, _, _ = exchange(port, f"GET /lists HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        check(status == 400, f"{kind} 11: two Host headers are 400", str(status))
        status, _, answer = get("/lists/gz/import?format=csv", port, [auth, ("Content-Type", "text/csv"), ("Content-Encoding", "gzip")], "POST", "x")
        check(status == 415, f"{kind} 11: Content-Encoding: gzip is 415", f"{status} {answer[:200]!r}")

        # 13. The Origin's scheme.
        status, _, _ = get("/lists/o/import?format=csv", port, [auth, ("Origin", f"https://127.0.0.1:{port}"), ("Content-Type", "text/csv")], "POST",
                           "id,name,latitude,longitude\na,A,1,2\n")
        check(status == 403, f"{kind} 13: an https:// Origin on the plain server is refused", str(status))

        # 14. An upload spool is 0700/0600 while it is written.
        raw = socket.create_connection(("127.0.0.1", port), timeout=10)
        raw.sendall((f"POST /lists/slow/import?format=csv HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {writer}\r\n"
                     "Content-Type: text/csv\r\nContent-Length: 100000\r\n\r\nid,name,latitude,longitude\n").encode())
        folders = []
        for _ in range(100):
            folders = [f for f in os.listdir(spool) if f.startswith("carousel-import-")]
            if folders and os.listdir(os.path.join(spool, folders[0])):
                break
            time.sleep(0.05)
        if folders:
            folder = os.path.join(spool, folders[0])
            files = [os.path.join(folder, f) for f in os.listdir(folder)]
            modes = [stat.S_IMODE(os.stat(folder).st_mode)] + [stat.S_IMODE(os.stat(f).st_mode) for f in files]
            check(modes[0] == 0o700 and all(m == 0o600 for m in modes[1:]), f"{kind} 14: an upload spool is 0700 holding 0600", str([oct(m) for m in modes]))
        else:
            check(False, f"{kind} 14: an upload spool is 0700 holding 0600", "no spool folder appeared")
        raw.close()

        # 15. Refusals logged with their client, and counted.
        status, _, _ = exchange(port, "G@T /lists HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status, _, _ = exchange(port, f"GET /lists HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {'b' * 90 * 1024}\r\n\r\n")
        check(status == 431, f"{kind} 15: headers over the limit are 431", str(status))
        _, _, metrics = get("/metrics", port)
        metrics = metrics.decode()
        check('route="Refused",method="-",status="400"' in metrics and 'route="Refused",method="-",status="431"' in metrics,
              f"{kind} 15: 400 and 431 refusals are counted", metrics[-600:])
        refused = [e for e in server.lines() if e.get("route") == "Refused"]
        check(len(refused) >= 2 and all(e.get("client") == "127.0.0.1" and e.get("requestId") for e in refused),
              f"{kind} 15: each refusal is a line with its client and a request id", str(refused)[:300])
        check(not any(e.get("level") == "error" for e in server.lines()), f"{kind} 15: no error lines", str([e for e in server.lines() if e.get("level") == "error"])[:300])

        # 17. A declared huge body to /simulate: 413 at once.
        started = time.monotonic()
        status, _, _ = exchange(port, f"POST /simulate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: 600000000\r\n\r\n")
        check(status == 413 and time.monotonic() - started < 5, f"{kind} 17: a declared 600 MB /simulate body is 413 at once", f"{status} after {time.monotonic() - started:.1f} s")

        # The probe's other results: no token bypass, no injection, no smuggling.
        status, _, _ = get("/lists/x/import?format=csv", port, [("Content-Type", "text/csv")], "POST", "id,name,latitude,longitude\na,A,1,2\n")
        check(status == 401, f"{kind}: a write without a token is 401", str(status))
        status, _, _ = get("/lists/x/import?format=csv", port, [("Authorization", f"Bearer {reader}"), ("Content-Type", "text/csv")], "POST",
                           "id,name,latitude,longitude\na,A,1,2\n")
        check(status == 403, f"{kind}: a write with a read token is 403", str(status))
        _, _, everything = get("/stores/search?list=seoul&q=a&limit=100", port)
        for payload in ["' OR '1'='1", "a%' OR 1=1 --", "'; DROP TABLE stores; --", "\" OR \"\"=\"", "1) UNION SELECT * FROM tokens --"]:
            quoted = payload.replace("%", "%25").replace(" ", "%20").replace("'", "%27").replace('"', "%22").replace(";", "%3B").replace("=", "%3D")
            for path in [f"/stores/search?list=seoul&q={quoted}", f"/lists/{quoted}/stores", f"/stores/near?lat=37.5&lng=127&list={quoted}"]:
                status, _, body = get(path, port)
                check(status < 500 and (status != 200 or len(body) <= len(everything) + 2048), f"{kind}: injection {path[:60]} answers {status}", body[:200])
        status, _, body = get("/lists/seoul/stores?limit=1", port)
        check(status == 200, f"{kind}: the list is whole after the injections", str(status))
        smuggle = (f"POST /simulate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                   f"0\r\n\r\nGET /lists HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n")
        status, _, _ = exchange(port, smuggle)
        check(status == 400, f"{kind}: Content-Length with Transfer-Encoding is 400 (no smuggling)", str(status))

        # No memory growth under 300 connections.
        before = server.rss_kib()
        for _ in range(3):
            sockets = []
            for _ in range(300):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                sockets.append(s)
            for s in sockets:
                try:
                    s.recv(4096)
                except OSError:
                    pass
                s.close()
        time.sleep(1)
        growth = server.rss_kib() - before
        check(growth < 32 * 1024, f"{kind}: 900 connections grew the server by {growth // 1024} MiB (< 32)", str(growth))
    finally:
        server.stop()

    # 8. A ping is traffic; 9. a revoked token's session closes 1008.
    server = Server(carousel, db, work, "--session-idle-timeout", "2", "--require-token-for-reads")
    try:
        session = Session(server.port, f"/lists/seoul/session?token={reader}")
        for _ in range(20):
            session.send(9, b"hi")
            time.sleep(0.2)
        still_open = not any(opcode == 8 for opcode, _ in session.frames(0.3))
        code = session.close_code(10)
        session.close()
        check(still_open and code == 1000, f"{kind} 8: pings keep a session past the idle timeout, silence closes it", f"{still_open} {code}")
        carousel_run(carousel, "tokens", "create", "doomed", "--scope", "read", "--db", db)
        doomed = carousel_run(carousel, "tokens", "create", "doomed2", "--scope", "read", "--db", db).stdout.strip()
        session = Session(server.port, f"/lists/seoul/session?token={doomed}")
        session.send(1, b'{"tapMarker":1}')
        session.frames(0.5)
        revoked_at = time.monotonic()
        carousel_run(carousel, "tokens", "revoke", "doomed2", "--db", db)
        code = session.close_code(10)
        took = time.monotonic() - revoked_at
        session.close()
        check(code == 1008, f"{kind} 9: a revoked token's session closes 1008 ({took:.2f} s after the revoke returned)", str(code))
    finally:
        server.stop()

    # 16. Session messages under the rate limit.
    server = Server(carousel, db, work, "--rate-limit", "5")
    try:
        session = Session(server.port)
        for _ in range(500):
            session.send(1, b'{"tapMarker":1}')
        texts = [payload.decode() for opcode, payload in session.frames(3) if opcode == 1]
        session.close()
        limited = sum("rate_limited" in t for t in texts)
        check(limited >= 480, f"{kind} 16: 500 tapMarkers on --rate-limit 5: {limited} refused", str(len(texts)))
    finally:
        server.stop()

    # 1 and 2. TLS: 1.2+ with forward-secret AEAD suites; a mismatched key refused on reload.
    certificate, key, other = (os.path.join(work, n) for n in ["cert.pem", "key.pem", "other.pem"])
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=probe.carousel.test",
                    "-keyout", key, "-out", certificate], capture_output=True, check=True)
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", other], capture_output=True, check=True)
    server = Server(carousel, db, work, "--tls-cert", certificate, "--tls-key", key)
    try:
        for name, arguments in [("TLS 1.0", ["-tls1", "-cipher", "DEFAULT@SECLEVEL=0"]), ("TLS 1.1", ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"]),
                                ("TLS 1.2 RSA key exchange", ["-tls1_2", "-cipher", "AES128-GCM-SHA256"]),
                                ("TLS 1.2 CBC-SHA1", ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-SHA"])]:
            done, _ = openssl_handshake(server.port, *arguments)
            check(not done, f"{kind} 1: {name} is refused")
        for name, arguments in [("TLS 1.2 ECDHE-RSA-AES128-GCM-SHA256", ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"]), ("TLS 1.3", ["-tls1_3"])]:
            done, text = openssl_handshake(server.port, *arguments)
            check(done, f"{kind} 1: {name} is served", text[-300:])
        shutil.copy(other, key)
        server.process.send_signal(signal.SIGHUP)
        time.sleep(1)
        done, text = openssl_handshake(server.port, "-tls1_2")
        check(done and "probe.carousel.test" in text, f"{kind} 2: a mismatched key on SIGHUP is refused and the old pair kept", text[-300:])
        status, _, _ = exchange(server.port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", tls=True)
        check(status == 200, f"{kind} 2: HTTPS still served after the refused reload", str(status))
        # 13, TLS side: an http:// Origin on the TLS server.
        raw = f"POST /lists/o/import?format=csv HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: http://127.0.0.1:{server.port}\r\nAuthorization: Bearer {writer}\r\nContent-Type: text/csv\r\nContent-Length: 34\r\nConnection: close\r\n\r\nid,name,latitude,longitude\na,A,1,2\n"
        status, _, _ = exchange(server.port, raw, tls=True)
        check(status == 403, f"{kind} 13: an http:// Origin on the TLS server is refused", str(status))
    finally:
        server.stop()

    # 3. A password in a PostgreSQL URL is never printed.
    for url in ["postgres://u:base64Pw/abc+def==@127.0.0.1:1/db", "postgres://u:pa?ss+word@127.0.0.1:1/db", "postgres://u:se#cr+et@127.0.0.1:1/db"]:
        password = url.split(":", 2)[2].rsplit("@", 1)[0]
        run = carousel_run(carousel, "serve", "--port", "0", env={"CAROUSEL_DB": url})
        check(run.returncode != 0 and password not in run.stderr and password not in run.stdout,
              f"{kind} 3: the password of {url.split('@')[0][:14]}… is masked", run.stderr[:300])


if __name__ == "__main__":
    main()
