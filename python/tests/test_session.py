"""The gamut wheel from Python: values, errors, one session across runs, Ctrl-C."""
import contextlib
import io
import os
import signal
import threading
import unittest
import warnings

import gamut


class SessionTests(unittest.TestCase):
    def test_values_come_back_as_python_values(self):
        s = gamut.Session()
        # Michon's Kayles values
        self.assertEqual(s.run("grundy(kayles, 0..5)"), [0, 1, 2, 3, 1, 4])
        self.assertEqual(s.run("6 * 7"), 42)
        self.assertIsInstance(s.run("order(slide4_hard)"), int)
        self.assertEqual(s.run("winning(kayles(1) + kayles(11))"), ["kayles(1) + kayles(3) + kayles(7)"])
        p = s.run("period(kayles)")
        self.assertEqual((p["preperiod"], p["period"], p["proven"]), (71, 12, True))
        t = s.run("table(fn(r, c) = r * c, 1..2, 1..3)")
        self.assertEqual(t["values"], [[1, 2, 3], [2, 4, 6]])
        self.assertEqual(s.run('"a" + "b"'), "ab")
        self.assertIsNone(s.run("let x = 5"))

    def test_pictures_come_with_their_drawing(self):
        s = gamut.Session()
        p = s.run('plot([3, 1, 2], title: "three bars")')
        self.assertIsInstance(p, gamut.Picture)
        self.assertEqual(p.format, "svg")
        self.assertIn("three bars", p.title)
        self.assertIn(b"<svg", p.data)
        self.assertEqual(p._repr_svg_(), p.data.decode())
        self.assertIsNone(p._repr_png_())
        self.assertIsNone(p.error)
        w = s.run("export(walks(slide2, 2))")
        self.assertEqual(w.format, "png")
        self.assertTrue(w.data.startswith(b"\x89PNG"))
        self.assertEqual(w._repr_png_(), w.data)

    def test_warnings_are_python_warnings(self):
        s = gamut.Session()
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            t = s.run("table(fn(r, c) = 1 / (r - c), 1..2, 1..2)")
        self.assertEqual(t["values"], [[None, -1], [1, None]])
        self.assertEqual(len(seen), 1)
        self.assertIn("2 cells of the table failed", str(seen[0].message))

    def test_print_writes_to_python_stdout(self):
        s = gamut.Session()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            v = s.run('print("a", 1)\nprint(kayles(3))\n5')
        self.assertEqual(v, 5)
        self.assertEqual(out.getvalue(), "a 1\nkayles(3)\n")

    def test_one_session_and_errors(self):
        s = gamut.Session()
        s.run("let x = 20")
        self.assertEqual(s.run("x + 1"), 21)
        with self.assertRaises(gamut.GamutError) as e:
            s.run("x + nosuch")
        self.assertIn("nosuch", str(e.exception))
        self.assertEqual(s.run("x"), 20)

    def test_ctrl_c_cancels_a_long_query(self):
        # a job started in the background by a shell inherits SIGINT ignored, and Python then
        # keeps it ignored: the test needs Python's own handler
        signal.signal(signal.SIGINT, signal.default_int_handler)
        s = gamut.Session()
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
        with self.assertRaises(KeyboardInterrupt):
            s.run("for i in 1..19000000 { for j in 1..19000000 { } }")
        self.assertEqual(s.run("1 + 1"), 2)


if __name__ == "__main__":
    unittest.main()
