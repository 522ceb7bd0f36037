#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# h2_get.py PORT CAFILE ROOT FILE... (tools/tlsxd/clients runs it) -
# Python's h2 (python3-h2: its connection state machine, flow control
# and HPACK, an implementation independent of tlsxd's and nghttp2's)
# fetches every FILE from tlsxd on 127.0.0.1:PORT over one connection,
# all streams at once, and compares each body with ROOT/FILE.  Prints
# "ok N files", or the first difference and exits 1.
import socket
import ssl
import sys

import h2.config
import h2.connection
import h2.events


def main():
    port, cafile, root, files = int(sys.argv[1]), sys.argv[2], \
        sys.argv[3], sys.argv[4:]
    ctx = ssl.create_default_context(cafile=cafile)
    ctx.set_alpn_protocols(['h2'])
    s = ctx.wrap_socket(socket.create_connection(('127.0.0.1', port)),
                        server_hostname='localhost')
    if s.selected_alpn_protocol() != 'h2':
        print('ALPN: %r' % s.selected_alpn_protocol())
        return 1
    c = h2.connection.H2Connection(h2.config.H2Configuration(
        client_side=True))
    c.initiate_connection()
    want, body, status = {}, {}, {}
    for f in files:
        sid = c.get_next_available_stream_id()
        c.send_headers(sid, [(':method', 'GET'), (':scheme', 'https'),
                             (':authority', 'localhost'),
                             (':path', '/' + f)], end_stream=True)
        want[sid] = f
        body[sid] = b''
    s.sendall(c.data_to_send())
    left = len(files)
    while left:
        data = s.recv(65536)
        if not data:
            print('EOF with %d streams left' % left)
            return 1
        for ev in c.receive_data(data):
            if isinstance(ev, h2.events.ResponseReceived):
                status[ev.stream_id] = dict(ev.headers)[b':status']
            elif isinstance(ev, h2.events.DataReceived):
                body[ev.stream_id] += ev.data
                c.acknowledge_received_data(ev.flow_controlled_length,
                                            ev.stream_id)
            elif isinstance(ev, h2.events.StreamEnded):
                left -= 1
            elif isinstance(ev, (h2.events.StreamReset,
                                 h2.events.ConnectionTerminated)):
                print('unexpected %r' % ev)
                return 1
        s.sendall(c.data_to_send())
    for sid, f in want.items():
        with open(root + '/' + f, 'rb') as fh:
            exp = fh.read()
        if status.get(sid) != b'200' or body[sid] != exp:
            print('%s: status %r, %d bytes, want %d' %
                  (f, status.get(sid), len(body[sid]), len(exp)))
            return 1
    c.close_connection()
    s.sendall(c.data_to_send())
    print('ok %d files' % len(files))
    return 0


if __name__ == '__main__':
    sys.exit(main())
