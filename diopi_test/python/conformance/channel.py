"""The worker -> harness half of a worker's channel, framed so that it
survives a library writing into the descriptor.

A library runs inside the worker and may write anything into any file
descriptor the worker has open, the channel's socket included. Each
message is therefore sent as one frame: a marker and a keyed digest that
only the harness and this worker know (a fresh key per worker), the
length, then the pickled message. Bytes that are not part of a valid frame
are counted as stray bytes, and the harness charges them to the case the
worker was running. The harness -> worker direction cannot be written to
by the worker, so it stays a plain multiprocessing connection.
"""
import hashlib
import hmac
import os
import pickle
import struct

_HEAD = struct.Struct("<8sQ16s")  # marker, payload length, digest
_MAX_PAYLOAD = 1 << 30


def new_key():
    return os.urandom(16)


def _marker(key):
    return hashlib.blake2b(key, digest_size=8, person=b"diopi-frame").digest()


def _digest(key, payload):
    return hmac.new(key, payload, "blake2b").digest()[:16]


def send(fd, key, obj):
    payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    frame = _HEAD.pack(_marker(key), len(payload), _digest(key, payload)) + payload
    view = memoryview(frame)
    while view:
        n = os.write(fd, view)
        view = view[n:]


class Reader:
    """The harness's end: feed() what the socket gives; messages() returns
    the complete, authentic messages and the stray bytes seen before each."""

    def __init__(self, fd, key):
        self.fd, self.key, self.marker = fd, key, _marker(key)
        self.buf = bytearray()
        self.stray = 0          # stray bytes since the last message
        self.stray_sample = b""

    def feed(self):
        """Reads what is available; False at end of file (the worker is gone)."""
        try:
            data = os.read(self.fd, 1 << 20)
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            return False
        if not data:
            return False
        self.buf += data
        return True

    def _skip(self, n):
        if n > 0:
            if len(self.stray_sample) < 80:
                self.stray_sample += bytes(self.buf[:min(n, 80 - len(self.stray_sample))])
            self.stray += n
            del self.buf[:n]

    def messages(self):
        """[(message, stray bytes before it, sample of them)] complete so far."""
        out = []
        while True:
            at = self.buf.find(self.marker)
            if at < 0:
                # keep a tail that may be the start of a marker
                self._skip(max(0, len(self.buf) - (len(self.marker) - 1)))
                return out
            self._skip(at)
            if len(self.buf) < _HEAD.size:
                return out
            _, length, digest = _HEAD.unpack_from(self.buf, 0)
            if length > _MAX_PAYLOAD:
                self._skip(1)
                continue
            end = _HEAD.size + length
            if len(self.buf) < end:
                return out
            payload = bytes(self.buf[_HEAD.size:end])
            if not hmac.compare_digest(digest, _digest(self.key, payload)):
                self._skip(1)
                continue
            del self.buf[:end]
            out.append((pickle.loads(payload), self.stray, self.stray_sample))
            self.stray, self.stray_sample = 0, b""
