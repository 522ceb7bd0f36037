#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# h2_frames.py [BUILD] (tools/tlsxd/h2-frames runs it) - RFC 9113's
# MUSTs against tlsxd, frame by frame: a raw HTTP/2 client made of
# python3-h2's low-level pieces (hyperframe's frames, hpack's coder;
# not h2's state machine, which would refuse to send what the cases
# send) over Python's ssl with ALPN h2.  Each case opens its own connection and checks what comes
# back: the frame type, the error code of a GOAWAY or RST_STREAM, the
# bytes of a body.  Then the limits of docs/http2.md (rapid reset,
# CONTINUATION and PING floods, too many streams, an HPACK bomb, a
# stalled stream closed by the send timeout) with another connection
# served meanwhile, and GOAWAY on SIGTERM.  Our SETTINGS unacknowledged
# (6.5.3): GOAWAY SETTINGS_TIMEOUT after --timeout-h2-settings, an ACK
# late but in time keeps the connection.  The attack cases read tlsxd's
# --metrics page before and after: each must move its counter.
#
# tlsxd is BUILD/bin/tlsxd (build), run on a free port with the
# userspace record layer (auto: what the machine has), certificates from
# tools/interop/mkcerts.  Output: kselftest's form for tools/run-tests.
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request

from hpack import Encoder, Decoder
from hyperframe.frame import (Frame, DataFrame, HeadersFrame,
                              ContinuationFrame, PriorityFrame,
                              RstStreamFrame, SettingsFrame, PingFrame,
                              GoAwayFrame, WindowUpdateFrame,
                              PushPromiseFrame)

PREFACE = b'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'
NO_ERROR, PROTOCOL_ERROR, FLOW_CONTROL_ERROR = 0, 1, 3
STREAM_CLOSED, FRAME_SIZE_ERROR, REFUSED_STREAM = 5, 6, 7
SETTINGS_TIMEOUT = 4
COMPRESSION_ERROR, ENHANCE_YOUR_CALM = 9, 11

B = sys.argv[1] if len(sys.argv) > 1 else 'build'
W = os.path.join(B, 'tlsxd-h2frames')
C = os.path.join(W, 'certs')
R = os.path.join(W, 'root')
LOG = os.path.join(W, 'tlsxd.log')
SEND_TIMEOUT_S = 2
SETTINGS_TIMEOUT_S = 1.5
MPORT = [0]         # tlsxd's --metrics port


class Conn:
    """One TLS connection with ALPN h2, frames in and out."""

    def __init__(self, port, preface=True, settings=None, ack=True):
        ctx = ssl.create_default_context(cafile=os.path.join(C, 'ca.pem'))
        ctx.set_alpn_protocols(['h2'])
        raw = socket.create_connection(('127.0.0.1', port), timeout=10)
        self.s = ctx.wrap_socket(raw, server_hostname='localhost')
        if self.s.selected_alpn_protocol() != 'h2':
            raise RuntimeError('ALPN: %r' % self.s.selected_alpn_protocol())
        self.buf = b''
        self.eof = False
        self.enc = Encoder()
        self.dec = Decoder()
        if preface:
            self.send(PREFACE)
            f = SettingsFrame(0)
            for k, v in (settings or {}).items():
                f.settings[k] = v
            self.frame(f)
        if preface and ack:
            # Our side of 6.5.3: the server's first frame is its
            # SETTINGS (3.4), acknowledged before any case goes on.
            f = self.recv()
            if not isinstance(f, SettingsFrame) or 'ACK' in f.flags:
                raise RuntimeError('server preface: %r' % f)
            self.frame(SettingsFrame(0, flags=['ACK']))

    def send(self, b):
        self.s.sendall(b)

    def frame(self, f):
        self.send(f.serialize())

    def raw(self, typ, flags, sid, payload):
        n = len(payload)
        self.send(bytes([n >> 16 & 255, n >> 8 & 255, n & 255, typ, flags])
                  + sid.to_bytes(4, 'big') + payload)

    def block(self, path='/small.txt', method='GET', extra=(), plain=()):
        fields = [(':method', method), (':scheme', 'https'),
                  (':path', path), (':authority', 'localhost')]
        return self.enc.encode(list(plain) + fields + list(extra))

    def get(self, sid, path='/small.txt', method='GET', extra=(),
            end_stream=True):
        f = HeadersFrame(sid)
        f.data = self.block(path, method, extra)
        f.flags.add('END_HEADERS')
        if end_stream:
            f.flags.add('END_STREAM')
        self.frame(f)

    def recv(self, timeout=5):
        """The next frame, or None at EOF or timeout."""
        self.s.settimeout(timeout)
        while True:
            if len(self.buf) >= 9:
                f, n = Frame.parse_frame_header(memoryview(self.buf[:9]))
                if len(self.buf) >= 9 + n:
                    f.parse_body(memoryview(self.buf[9:9 + n]))
                    self.buf = self.buf[9 + n:]
                    if isinstance(f, HeadersFrame):
                        f.fields = self.dec.decode(f.data)
                    return f
            try:
                d = self.s.recv(65536)
            except socket.timeout:
                return None
            except (ssl.SSLError, ConnectionError):
                self.eof = True
                return None
            if not d:
                self.eof = True
                return None
            self.buf += d

    def until(self, pred, timeout=5):
        """Frames until pred(frame); that frame, or None."""
        end = time.time() + timeout
        while time.time() < end:
            f = self.recv(max(0.1, end - time.time()))
            if f is None:
                return None
            if pred(f):
                return f
        return None

    def goaway(self, timeout=5):
        return self.until(lambda f: isinstance(f, GoAwayFrame), timeout)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


def response(c, sid, timeout=10, window=True):
    """Status, fields, body of stream sid (windows reopened as read)."""
    status, fields, body = None, {}, b''
    end = time.time() + timeout
    while time.time() < end:
        f = c.recv(max(0.1, end - time.time()))
        if f is None:
            break
        if isinstance(f, HeadersFrame) and f.stream_id == sid:
            for k, v in f.fields:
                fields[k] = v
            status = fields.get(':status')
            if 'END_STREAM' in f.flags:
                return status, fields, body
        elif isinstance(f, DataFrame) and f.stream_id == sid:
            body += f.data
            if 'END_STREAM' in f.flags:
                return status, fields, body
            if window and f.flow_controlled_length:
                c.frame(WindowUpdateFrame(0, f.flow_controlled_length))
                c.frame(WindowUpdateFrame(sid, f.flow_controlled_length))
        elif isinstance(f, (GoAwayFrame, RstStreamFrame)) and \
                f.stream_id in (0, sid):
            return ('GOAWAY' if isinstance(f, GoAwayFrame) else 'RST',
                    f.error_code, body)
    return None, fields, body


results = []


def metrics():
    """tlsxd's --metrics page: {'name{labels}': value}."""
    url = 'http://127.0.0.1:%d/metrics' % MPORT[0]
    page = urllib.request.urlopen(url, timeout=10).read().decode()
    out = {}
    for line in page.splitlines():
        if line and not line.startswith('#'):
            k, v = line.rsplit(' ', 1)
            out[k] = int(float(v))
    return out


def moved(before, want):
    """Each counter of want grew by at least its value since before."""
    after = metrics()
    for k, n in want.items():
        d = after.get(k, 0) - before.get(k, 0)
        assert d >= n, 'metric %s grew by %d, want >= %d' % (k, d, n)


LIM = 'tlsxd_h2_limits_total{limit="%s"}'
GOAWAY = 'tlsxd_h2_goaways_sent_total{code="%s"}'


def case(name):
    def wrap(fn):
        results.append((name, fn))
        return fn
    return wrap


def expect_goaway(c, code):
    g = c.goaway()
    assert g is not None, 'no GOAWAY'
    assert g.error_code == code, 'GOAWAY %d, want %d' % (g.error_code, code)


def expect_rst(c, sid, code):
    f = c.until(lambda f: isinstance(f, (RstStreamFrame, GoAwayFrame)))
    assert isinstance(f, RstStreamFrame), 'want RST_STREAM, got %r' % f
    assert f.stream_id == sid and f.error_code == code, \
        'RST_STREAM %d on %d, want %d' % (f.error_code, f.stream_id, code)


@case('server-preface-is-settings-and-acks-ours')   # 3.4, 6.5.3
def _(port):
    c = Conn(port, ack=False)
    f = c.recv()
    assert isinstance(f, SettingsFrame) and 'ACK' not in f.flags, f
    assert f.settings.get(SettingsFrame.ENABLE_PUSH, 0) == 0
    assert f.settings.get(SettingsFrame.MAX_CONCURRENT_STREAMS) == 100
    assert c.until(lambda f: isinstance(f, SettingsFrame) and
                   'ACK' in f.flags) is not None, 'no SETTINGS ACK'


@case('get-head-range-404-byte-exact')
def _(port):
    c = Conn(port)
    big = open(os.path.join(R, 'big.bin'), 'rb').read()
    c.get(1, '/big.bin')
    st, fl, body = response(c, 1)
    assert st == '200' and body == big, (st, len(body))
    assert fl['content-length'] == str(len(big))
    assert 'connection' not in fl       # 8.2.2
    c.get(3, '/big.bin', 'HEAD')
    st, fl, body = response(c, 3)
    assert st == '200' and body == b'' and \
        fl['content-length'] == str(len(big)), (st, fl)
    c.get(5, '/big.bin', extra=[('range', 'bytes=16380-16390')])
    st, fl, body = response(c, 5)
    assert st == '206' and body == big[16380:16391], (st, len(body))
    c.get(7, '/missing')
    st, fl, body = response(c, 7)
    assert st == '404', st


@case('preface-wrong-is-protocol-error')            # 3.4
def _(port):
    c = Conn(port, preface=False)
    c.send(b'PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n')
    expect_goaway(c, PROTOCOL_ERROR)


@case('first-frame-not-settings')                   # 3.4
def _(port):
    c = Conn(port, preface=False)
    c.send(PREFACE)
    c.frame(PingFrame(0, b'12345678'))
    expect_goaway(c, PROTOCOL_ERROR)


@case('frame-over-max-frame-size')                  # 4.2
def _(port):
    c = Conn(port)
    c.raw(0x0, 0, 1, b'x' * 16385)
    expect_goaway(c, FRAME_SIZE_ERROR)


@case('ping-acked-with-its-payload')                # 6.7
def _(port):
    c = Conn(port)
    c.frame(PingFrame(0, b'abcdefgh'))
    f = c.until(lambda f: isinstance(f, PingFrame))
    assert f is not None and 'ACK' in f.flags and \
        f.opaque_data == b'abcdefgh', f


@case('ping-on-a-stream')                           # 6.7
def _(port):
    c = Conn(port)
    c.raw(0x6, 0, 1, b'12345678')
    expect_goaway(c, PROTOCOL_ERROR)


@case('ping-wrong-length')                          # 6.7
def _(port):
    c = Conn(port)
    c.raw(0x6, 0, 0, b'1234567')
    expect_goaway(c, FRAME_SIZE_ERROR)


@case('settings-initial-window-too-large')          # 6.5.2
def _(port):
    c = Conn(port)
    c.raw(0x4, 0, 0, b'\x00\x04\x80\x00\x00\x00')
    expect_goaway(c, FLOW_CONTROL_ERROR)


@case('settings-max-frame-size-too-small')          # 6.5.2
def _(port):
    c = Conn(port)
    c.raw(0x4, 0, 0, b'\x00\x05\x00\x00\x3f\xff')
    expect_goaway(c, PROTOCOL_ERROR)


@case('settings-enable-push-2')                     # 6.5.2
def _(port):
    c = Conn(port)
    c.raw(0x4, 0, 0, b'\x00\x02\x00\x00\x00\x02')
    expect_goaway(c, PROTOCOL_ERROR)


@case('settings-length-not-multiple-of-6')          # 6.5
def _(port):
    c = Conn(port)
    c.raw(0x4, 0, 0, b'\x00\x02\x00\x00\x00')
    expect_goaway(c, FRAME_SIZE_ERROR)


@case('settings-ack-with-payload')                  # 6.5
def _(port):
    c = Conn(port)
    c.raw(0x4, 1, 0, b'\x00\x02\x00\x00\x00\x00')
    expect_goaway(c, FRAME_SIZE_ERROR)


@case('headers-on-stream-0')                        # 6.2
def _(port):
    c = Conn(port)
    c.raw(0x1, 5, 0, c.block())
    expect_goaway(c, PROTOCOL_ERROR)


@case('even-stream-id')                             # 5.1.1
def _(port):
    c = Conn(port)
    c.get(2)
    expect_goaway(c, PROTOCOL_ERROR)


@case('stream-id-going-down')                       # 5.1.1
def _(port):
    c = Conn(port)
    c.get(5)
    c.get(3)
    g = c.goaway()
    assert g is not None and g.error_code in (PROTOCOL_ERROR,
                                              STREAM_CLOSED), g


@case('upper-case-field-name')                      # 8.2.1
def _(port):
    c = Conn(port)
    c.get(1, extra=[('X-Upper', '1')])
    expect_rst(c, 1, PROTOCOL_ERROR)


@case('connection-specific-field')                  # 8.2.2
def _(port):
    c = Conn(port)
    c.get(1, extra=[('connection', 'keep-alive')])
    expect_rst(c, 1, PROTOCOL_ERROR)
    c.get(3, extra=[('te', 'gzip')])
    expect_rst(c, 3, PROTOCOL_ERROR)
    c.get(5, extra=[('te', 'trailers')])
    st, _, _ = response(c, 5)
    assert st == '200', st


@case('pseudo-header-after-field')                  # 8.3
def _(port):
    c = Conn(port)
    f = HeadersFrame(1)
    f.data = c.enc.encode([(':method', 'GET'), ('x-a', '1'),
                           (':scheme', 'https'), (':path', '/')])
    f.flags.add('END_HEADERS')
    f.flags.add('END_STREAM')
    c.frame(f)
    expect_rst(c, 1, PROTOCOL_ERROR)


@case('pseudo-header-missing-or-unknown')           # 8.3.1
def _(port):
    c = Conn(port)
    f = HeadersFrame(1)
    f.data = c.enc.encode([(':method', 'GET'), (':scheme', 'https')])
    f.flags.add('END_HEADERS')
    f.flags.add('END_STREAM')
    c.frame(f)
    expect_rst(c, 1, PROTOCOL_ERROR)
    c.get(3, extra=[(':status', '200')])
    expect_rst(c, 3, PROTOCOL_ERROR)


@case('authority-and-host-differ')                  # 8.3.1
def _(port):
    c = Conn(port)
    c.get(1, extra=[('host', 'elsewhere')])
    expect_rst(c, 1, PROTOCOL_ERROR)


@case('frame-inside-a-header-block')                # 6.2, 6.10
def _(port):
    c = Conn(port)
    b = c.block()
    c.raw(0x1, 1, 1, b[:2])
    c.frame(PingFrame(0, b'12345678'))
    expect_goaway(c, PROTOCOL_ERROR)


@case('continuation-joins-a-block')                 # 4.3
def _(port):
    c = Conn(port)
    b = c.block()
    c.raw(0x1, 1, 1, b[:2])
    c.raw(0x9, 0, 1, b[2:4])
    c.raw(0x9, 4, 1, b[4:])
    st, _, body = response(c, 1)
    assert st == '200' and body == b'tlsxd says hello\n', st


@case('continuation-without-headers')               # 6.10
def _(port):
    c = Conn(port)
    c.raw(0x9, 4, 1, c.block())
    expect_goaway(c, PROTOCOL_ERROR)


@case('hpack-error-is-compression-error')           # 4.3
def _(port):
    c = Conn(port)
    c.raw(0x1, 5, 1, b'\x80')
    expect_goaway(c, COMPRESSION_ERROR)


@case('data-on-idle-stream')                        # 5.1
def _(port):
    c = Conn(port)
    c.raw(0x0, 0, 1, b'x')
    expect_goaway(c, PROTOCOL_ERROR)


@case('rst-stream-on-idle-stream')                  # 6.4
def _(port):
    c = Conn(port)
    c.frame(RstStreamFrame(1, 8))
    expect_goaway(c, PROTOCOL_ERROR)


@case('push-promise-from-client')                   # 8.4
def _(port):
    c = Conn(port)
    c.raw(0x5, 4, 1, b'\x00\x00\x00\x02' + c.block())
    expect_goaway(c, PROTOCOL_ERROR)


@case('window-update-zero')                         # 6.9
def _(port):
    c = Conn(port)
    c.raw(0x8, 0, 0, b'\x00\x00\x00\x00')
    expect_goaway(c, PROTOCOL_ERROR)


@case('window-update-zero-on-a-stream')             # 6.9
def _(port):
    c = Conn(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 0})
    c.get(1, '/big.bin')
    c.raw(0x8, 0, 1, b'\x00\x00\x00\x00')
    expect_rst(c, 1, PROTOCOL_ERROR)


@case('window-overflow')                            # 6.9.1
def _(port):
    c = Conn(port)
    c.frame(WindowUpdateFrame(0, 0x7fffffff))
    expect_goaway(c, FLOW_CONTROL_ERROR)


@case('flow-control-window-respected')              # 6.9, 6.9.2
def _(port):
    c = Conn(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 1000})
    c.get(1, '/big.bin')
    st, _, body = response(c, 1, timeout=1, window=False)
    assert st is None and len(body) == 1000, (st, len(body))
    # 6.9.2: a new INITIAL_WINDOW_SIZE reaches the open stream.
    f = SettingsFrame(0)
    f.settings[SettingsFrame.INITIAL_WINDOW_SIZE] = 3000
    c.frame(f)
    st, _, more = response(c, 1, timeout=1, window=False)
    assert len(more) == 2000, len(more)
    c.frame(WindowUpdateFrame(1, 1 << 30))
    c.frame(WindowUpdateFrame(0, 1 << 30))
    st, _, rest = response(c, 1)
    big = open(os.path.join(R, 'big.bin'), 'rb').read()
    assert body + more + rest == big


@case('request-body-refused-413')                   # 8.1
def _(port):
    c = Conn(port)
    c.get(1, end_stream=False)
    c.frame(DataFrame(1, b'body'))
    f = c.until(lambda f: isinstance(f, HeadersFrame))
    assert f is not None and dict(f.fields)[':status'] == '413', f
    expect_rst(c, 1, NO_ERROR)


@case('priority-ignored')                           # 5.3.2
def _(port):
    c = Conn(port)
    c.frame(PriorityFrame(3, depends_on=1, stream_weight=200))
    c.get(3, extra=[('priority', 'u=1, i')])
    st, _, body = response(c, 3)
    assert st == '200', st


@case('many-streams-at-once-byte-exact')
def _(port):
    c = Conn(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 1 << 24})
    c.frame(WindowUpdateFrame(0, (1 << 30)))
    names = ['f%d.bin' % i for i in range(40)]
    for i, n in enumerate(names):
        c.get(1 + 2 * i, '/' + n)
    got = {}
    ends = 0
    while ends < len(names):
        f = c.recv(10)
        assert f is not None, 'stalled with %d of %d' % (ends, len(names))
        if isinstance(f, DataFrame):
            got[f.stream_id] = got.get(f.stream_id, b'') + f.data
            c.frame(WindowUpdateFrame(0, max(1, len(f.data))))
        if 'END_STREAM' in getattr(f, 'flags', ()):
            ends += 1
    for i, n in enumerate(names):
        want = open(os.path.join(R, n), 'rb').read()
        assert got.get(1 + 2 * i, b'') == want, n


@case('max-concurrent-streams-refused')             # 5.1.2
def _(port):
    m = metrics()
    c = Conn(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 0})
    for i in range(101):
        c.get(1 + 2 * i, '/big.bin')
    expect_rst(c, 201, REFUSED_STREAM)
    moved(m, {LIM % 'concurrent_streams': 1,
              'tlsxd_h2_stream_resets_total{by="server"}': 1,
              'tlsxd_h2_streams_total': 100})


@case('header-list-too-large-431')                  # 6.5.2, HPACK bomb
def _(port):
    c = Conn(port)
    m = metrics()
    c.get(1, extra=[('x-a', 'a' * 9000), ('x-b', 'b' * 9000)])
    st, _, _ = response(c, 1)
    assert st == '431', st
    moved(m, {LIM % 'header_list': 1})


def other_connection_served(port):
    d = Conn(port)
    d.get(1)
    st, _, body = response(d, 1)
    d.close()
    assert st == '200' and body == b'tlsxd says hello\n', \
        'another connection was not served'


@case('rapid-reset-enhance-your-calm')              # CVE-2023-44487
def _(port):
    m = metrics()
    c = Conn(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 0})
    out = b''
    for i in range(300):
        out += HeadersFrame(1 + 2 * i, data=c.block('/big.bin'),
                            flags=['END_HEADERS', 'END_STREAM']).serialize()
        out += RstStreamFrame(1 + 2 * i, 8).serialize()
    c.send(out)
    expect_goaway(c, ENHANCE_YOUR_CALM)
    other_connection_served(port)
    moved(m, {LIM % 'rapid_reset': 1, GOAWAY % 'ENHANCE_YOUR_CALM': 1,
              'tlsxd_h2_stream_resets_total{by="peer"}': 100})


@case('continuation-flood-enhance-your-calm')       # CVE-2024-27316
def _(port):
    m = metrics()
    c = Conn(port)
    c.raw(0x1, 1, 1, c.block()[:1])
    try:
        for _ in range(100):
            c.raw(0x9, 0, 1, b'\x40\x01a\x01b')
    except OSError:
        pass
    expect_goaway(c, ENHANCE_YOUR_CALM)
    other_connection_served(port)
    moved(m, {LIM % 'header_block': 1})


@case('ping-flood-enhance-your-calm')
def _(port):
    m = metrics()
    c = Conn(port)
    try:
        c.send(PingFrame(0, b'12345678').serialize() * 5000)
    except OSError:
        pass
    expect_goaway(c, ENHANCE_YOUR_CALM)
    other_connection_served(port)
    # The bucket, or the answers owed, whichever is hit first.
    a = metrics()
    d = sum(a.get(LIM % k, 0) - m.get(LIM % k, 0)
            for k in ('flood', 'owed_frames'))
    assert d >= 1, 'no flood or owed_frames limit counted'


@case('settings-and-empty-frame-flood')
def _(port):
    m = metrics()
    c = Conn(port)
    try:
        c.send(SettingsFrame(0).serialize() * 1000)
    except OSError:
        pass
    expect_goaway(c, ENHANCE_YOUR_CALM)
    c = Conn(port)
    c.get(1)
    response(c, 1)
    try:
        c.send(DataFrame(1, b'').serialize() * 1000)
    except OSError:
        pass
    expect_goaway(c, ENHANCE_YOUR_CALM)
    other_connection_served(port)
    a = metrics()
    d = sum(a.get(LIM % k, 0) - m.get(LIM % k, 0)
            for k in ('flood', 'owed_frames'))
    assert d >= 2, 'flood or owed_frames counted %d times, want 2' % d


@case('priority-flood-enhance-your-calm')
def _(port):
    m = metrics()
    c = Conn(port)
    # PRIORITY frames owe no answer: the bucket alone stops them.
    try:
        c.send(PriorityFrame(1, depends_on=3).serialize() * 1000)
    except OSError:
        pass
    expect_goaway(c, ENHANCE_YOUR_CALM)
    other_connection_served(port)
    moved(m, {LIM % 'flood': 1, GOAWAY % 'ENHANCE_YOUR_CALM': 1})


@case('zero-window-stall-closed-by-send-timeout')
def _(port):
    m = metrics()
    c = Conn(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 0})
    c.get(1, '/big.bin')
    t0 = time.time()
    # A stream flowing meanwhile on another connection.
    other_connection_served(port)
    # PINGs (2 a second) answered meanwhile do not keep it.
    while not c.eof and time.time() - t0 < SEND_TIMEOUT_S * 3:
        try:
            c.frame(PingFrame(0, b'stalled!'))
        except OSError:
            break
        end = time.time() + 0.5
        while not c.eof and time.time() < end:
            c.recv(max(0.05, end - time.time()))
    took = time.time() - t0
    assert SEND_TIMEOUT_S - 0.5 <= took <= SEND_TIMEOUT_S * 2.5, took
    moved(m, {LIM % 'send_timeout': 1,
              'tlsxd_timeouts_total{phase="send"}': 1})


@case('settings-timeout-goaway')                    # 6.5.3
def _(port):
    m = metrics()
    c = Conn(port, ack=False)
    t0 = time.time()
    c.get(1)
    st, _, body = response(c, 1)
    assert st == '200' and body == b'tlsxd says hello\n', st
    g = c.goaway(SETTINGS_TIMEOUT_S * 4)
    took = time.time() - t0
    assert g is not None, 'no GOAWAY'
    assert g.error_code == SETTINGS_TIMEOUT and g.last_stream_id == 1, \
        'GOAWAY %d last %d' % (g.error_code, g.last_stream_id)
    assert SETTINGS_TIMEOUT_S - 0.3 <= took <= SETTINGS_TIMEOUT_S * 3, took
    assert c.recv(5) is None and c.eof, 'not closed after the GOAWAY'
    other_connection_served(port)
    moved(m, {GOAWAY % 'SETTINGS_TIMEOUT': 1})


@case('settings-ack-late-in-time-served')           # 6.5.3
def _(port):
    c = Conn(port, ack=False)
    f = c.recv()
    assert isinstance(f, SettingsFrame) and 'ACK' not in f.flags, f
    time.sleep(SETTINGS_TIMEOUT_S * 0.6)
    c.frame(SettingsFrame(0, flags=['ACK']))
    # Past the deadline: the connection is still served.
    time.sleep(SETTINGS_TIMEOUT_S)
    c.get(1)
    st, _, body = response(c, 1)
    assert st == '200' and body == b'tlsxd says hello\n', st
    c.get(3)
    st, _, _ = response(c, 3)
    assert st == '200', st
    c.close()


@case('counters-streams-bytes-connections')
def _(port):
    m = metrics()
    c = Conn(port)
    c.get(1, '/big.bin')
    st, _, body = response(c, 1)
    assert st == '200' and len(body) == 300000, st
    c.frame(GoAwayFrame(0, 0, 0))
    c.close()
    time.sleep(0.3)
    moved(m, {'tlsxd_h2_connections_total': 1, 'tlsxd_h2_streams_total': 1,
              'tlsxd_h2_data_bytes_total': 300000})


def mkroot():
    os.makedirs(R, exist_ok=True)
    with open(os.path.join(R, 'small.txt'), 'wb') as f:
        f.write(b'tlsxd says hello\n')
    with open(os.path.join(R, 'big.bin'), 'wb') as f:
        f.write(os.urandom(300000))
    for i in range(40):
        with open(os.path.join(R, 'f%d.bin' % i), 'wb') as f:
            f.write(os.urandom((i * 7919) % 70000))


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start():
    for _ in range(5):
        port = free_port()
        MPORT[0] = free_port()
        log = open(LOG, 'w')
        p = subprocess.Popen(
            ['timeout', '600', os.path.join(B, 'bin', 'tlsxd'),
             '--listen', '127.0.0.1:%d' % port, '--root', R,
             '--cert', os.path.join(C, 'p256.pem'),
             '--key', os.path.join(C, 'p256.key'), '--workers', '1',
             '--timeout-send', '%ds' % SEND_TIMEOUT_S,
             '--timeout-h2-settings', '%d' % (SETTINGS_TIMEOUT_S * 1000),
             '--metrics', '127.0.0.1:%d' % MPORT[0]],
            stdout=log, stderr=log)
        for _ in range(100):
            time.sleep(0.05)
            if 'listening on' in open(LOG).read():
                return p, port
            if p.poll() is not None:
                break
        p.kill()
    return None, None


def main():
    print('TAP version 13')
    if not os.access(os.path.join(B, 'bin', 'tlsxd'), os.X_OK):
        print('1..0 # SKIP tlsxd not built')
        print('# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0')
        return 0
    os.makedirs(W, exist_ok=True)
    if subprocess.call(['tools/interop/mkcerts', C],
                       stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL):
        print('not ok 1 mkcerts')
        print('# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0')
        return 1
    mkroot()
    p, port = start()
    if not p:
        print('not ok 1 tlsxd-start')
        print('# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0')
        return 1
    npass = nfail = 0
    n = 0
    flt = os.environ.get('H2_FILTER', '')
    for name, fn in results:
        if flt and flt not in name:
            continue
        n += 1
        try:
            fn(port)
            print('ok %d %s' % (n, name))
            npass += 1
        except Exception as e:          # a failed check, or I/O
            print('not ok %d %s' % (n, name))
            tb = e.__traceback__
            while tb.tb_next:
                tb = tb.tb_next
            print('# %s: %r at line %d' % (type(e).__name__, e,
                                           tb.tb_lineno))
            nfail += 1
        if p.poll() is not None:
            print('# tlsxd died')
            break
    # GOAWAY NO_ERROR on SIGTERM (6.8), the stream in flight finished.
    # The SIGTERM goes to timeout(1), which sends it to tlsxd and then to
    # its process group: one stop delivered twice, which must not cut
    # the stream (main.c's same_stop()).
    n += 1
    try:
        c = Conn(port, settings={SettingsFrame.INITIAL_WINDOW_SIZE: 0})
        c.get(1, '/small.txt')
        c.until(lambda f: isinstance(f, HeadersFrame))
        p.send_signal(signal.SIGTERM)
        g = c.goaway()
        assert g is not None and g.error_code == NO_ERROR and \
            g.last_stream_id == 1, g
        c.frame(WindowUpdateFrame(1, 100))
        st, _, body = response(c, 1)
        assert body == b'tlsxd says hello\n', body
        print('ok %d sigterm-goaway-no-error' % n)
        npass += 1
    except Exception as e:
        print('not ok %d sigterm-goaway-no-error' % n)
        print('# %s: %r at line %d' % (type(e).__name__, e,
                                       e.__traceback__.tb_lineno))
        nfail += 1
    p.send_signal(signal.SIGTERM)
    p.wait()
    if nfail:
        # Its last lines but the counters it logs at the exit.
        lines = [ln for ln in open(LOG).read().splitlines()
                 if '] stats: ' not in ln]
        for line in lines[-12:]:
            print('#   ' + line)
    print('1..%d' % n)
    print('# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0'
          % (npass, nfail))
    return 1 if nfail else 0


if __name__ == '__main__':
    sys.exit(main())
