"""Malformed messages sent straight to the gamut kernel's sockets (pyzmq, and a plain TCP socket
for ZeroMQ's framing): each one is refused, with an error reply where it is a request signed with
the kernel's key, else with a line on the kernel's stderr, and the kernel goes on serving."""
import hashlib
import hmac
import json
import os
import socket
import struct
import tempfile
import time
import unittest
import uuid

import zmq
from jupyter_client.manager import start_new_kernel

# ZMTP 3.0's greeting for the NULL mechanism
GREETING = b"\xff" + b"\0" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\0") + b"\0" * 32


class MalformedMessages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        cls.km, cls.kc = start_new_kernel(kernel_name="gamut", stderr=cls.log)
        cls.info = cls.km.get_connection_info()
        key = cls.info["key"]
        cls.key = key if isinstance(key, bytes) else key.encode()
        cls.ctx = zmq.Context()

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel()
        cls.ctx.term()
        cls.log.close()
        os.unlink(cls.log.name)

    def port(self, channel):
        return self.info[f"{channel}_port"]

    def socket(self, channel, kind=zmq.DEALER):
        s = self.ctx.socket(kind)
        s.linger = 0
        s.rcvtimeo = 10000
        s.connect(f"tcp://{self.info['ip']}:{self.port(channel)}")
        self.addCleanup(s.close)
        return s

    def frames(self, msg_type, content, signature=None, header=None):
        header = header or json.dumps(
            {
                "msg_id": uuid.uuid4().hex,
                "username": "test",
                "session": uuid.uuid4().hex,
                "date": "2025-01-01T00:00:00Z",
                "msg_type": msg_type,
                "version": "5.3",
            }
        ).encode()
        parts = [header, b"{}", b"{}", content]
        if signature is None:
            mac = hmac.new(self.key, digestmod=hashlib.sha256)
            for p in parts:
                mac.update(p)
            signature = mac.hexdigest().encode()
        return [b"<IDS|MSG>", signature, *parts]

    def assert_serving(self):
        """The kernel still runs cells, answers on the control channel and beats."""
        self.assertTrue(self.km.is_alive())
        reply = self.kc.execute("6 * 7", reply=True, timeout=20)
        self.assertEqual(reply["content"]["status"], "ok")
        msg = self.kc.session.msg("kernel_info_request")
        self.kc.control_channel.send(msg)
        reply = self.kc.control_channel.get_msg(timeout=20)
        self.assertEqual(reply["parent_header"]["msg_id"], msg["header"]["msg_id"])
        hb = self.socket("hb", zmq.REQ)
        hb.send(b"ping")
        hb.recv()

    def assert_logged(self, text):
        deadline = time.time() + 10
        while time.time() < deadline:
            with open(self.log.name) as f:
                if text in f.read():
                    return
            time.sleep(0.1)
        with open(self.log.name) as f:
            self.fail(f"the kernel's stderr lacks {text!r}:\n{f.read()}")

    def test_untrusted_messages_are_logged_and_dropped(self):
        """Bad signature, no delimiter, too few frames, a malformed header: nothing to answer."""
        cases = [
            (self.frames("execute_request", b'{"code": "1"}', signature=b"0" * 64), "does not match"),
            (self.frames("execute_request", b'{"code": "1"}', signature=b"zz"), "not hexadecimal"),
            ([b"hello", b"world"], "without the <IDS|MSG> delimiter"),
            ([b"<IDS|MSG>"], "no signature"),
            ([b"<IDS|MSG>", b"", b"{}"], "1 frames after the signature"),
            (self.frames("execute_request", b"{}", header=b'{"msg_type": 1}'), "malformed header"),
        ]
        for channel in ["shell", "control"]:
            s = self.socket(channel)
            for frames, logged in cases:
                with self.subTest(channel=channel, logged=logged):
                    s.send_multipart(frames)
                    self.assert_logged(logged)
                    self.assert_serving()
            s.rcvtimeo = 500
            with self.assertRaises(zmq.Again):
                s.recv_multipart()

    def test_malformed_requests_get_error_replies(self):
        """Signed requests whose content is not JSON or does not fit, and unknown requests."""
        cases = [
            ("shell", "execute_request", b"{not json", "execute_reply"),
            ("shell", "execute_request", b'{"cod": 1}', "execute_reply"),
            ("shell", "complete_request", b'{"code": "x", "cursor_pos": -1}', "complete_reply"),
            ("shell", "frobnicate_request", b"{}", "frobnicate_reply"),
            ("control", "kernel_info_request", b"[1, 2", "kernel_info_reply"),
            ("control", "debug_request", b"{}", "debug_reply"),
        ]
        for channel, msg_type, content, reply_type in cases:
            with self.subTest(channel=channel, msg_type=msg_type, content=content):
                s = self.socket(channel)
                frames = self.frames(msg_type, content)
                s.send_multipart(frames)
                reply = s.recv_multipart()
                at = reply.index(b"<IDS|MSG>")
                header, parent, _, body = (json.loads(p) for p in reply[at + 2 : at + 6])
                self.assertEqual(header["msg_type"], reply_type)
                self.assertEqual(parent["msg_id"], json.loads(frames[2])["msg_id"])
                self.assertEqual(body["status"], "error")
                self.assertTrue(body["evalue"])
                self.assert_serving()

    def test_a_message_past_the_limit_cuts_off_its_peer(self):
        """A frame header claiming a terabyte, on each port: that peer is cut off, no more."""
        for channel in ["shell", "control", "stdin", "iopub", "hb"]:
            with self.subTest(channel=channel):
                with socket.create_connection((self.info["ip"], self.port(channel)), timeout=10) as raw:
                    raw.sendall(GREETING)
                    raw.sendall(b"\x02" + struct.pack(">Q", 1 << 40))
                    # the kernel's greeting and handshake, then the end of the connection
                    while raw.recv(65536):
                        pass
                self.assert_logged(f"cut off a peer on the {'heartbeat' if channel == 'hb' else channel} channel")
                self.assert_serving()

    def test_garbage_on_the_heartbeat(self):
        """A heartbeat message without the envelope a REQ socket sends fails that beat only."""
        s = self.socket("hb")
        s.send(b"ping")
        time.sleep(0.5)
        self.assert_serving()


if __name__ == "__main__":
    unittest.main()
