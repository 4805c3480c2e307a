"""jupyter_kernel_test's standard checks, and an interrupt, against the installed gamut kernel."""
import time
import unittest

import jupyter_kernel_test


class GamutKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "gamut"
    language_name = "gamut"
    file_extension = ".game"

    # a printed value is the cell's result
    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": "grundy(kayles, 0..5)", "result": "[0, 1, 2, 3, 1, 4]"},
    ]
    code_generate_error = "1 +"
    # a warning (cells of a table that failed) goes to the cell's stderr
    code_stderr = "table(fn(r, c) = 1 / (r - c), 1..2, 1..2)"
    # print writes to stdout
    code_hello_world = 'print("hello, world")'
    # every value but a cell's last is display data; a printed picture is displayed as SVG
    code_display_data = [
        {"code": "1\n2", "mime": "text/plain"},
        {"code": "print(plot([1, 2, 3]))", "mime": "image/svg+xml"},
        {"code": "export(slide2)\n1", "mime": "image/svg+xml"},
    ]
    completion_samples = [{"text": "grund", "matches": {"grundy", "grundys_game"}}]
    code_inspect_sample = "grundy"

    def test_gamut_value_forms(self):
        """A value comes with its JSON form; a table with an HTML one."""
        self.flush_channels()
        _, outputs = self.execute_helper(code="[1, 2, 3]")
        data = [o for o in outputs if o["msg_type"] == "execute_result"][0]["content"]["data"]
        self.assertEqual(data["application/json"], [1, 2, 3])
        self.flush_channels()
        _, outputs = self.execute_helper(code="table(fn(r, c) = r * c, 1..2, 1..3)")
        data = [o for o in outputs if o["msg_type"] == "execute_result"][0]["content"]["data"]
        self.assertIn("<td>6</td>", data["text/html"])

    def test_gamut_records_lists_and_pictures(self):
        """A record and a list of records come as HTML tables; a picture as inline SVG; print
        keeps its place among the values shown."""
        self.flush_channels()
        _, outputs = self.execute_helper(code="diameter(slide2)")
        data = [o for o in outputs if o["msg_type"] == "execute_result"][0]["content"]["data"]
        self.assertIn("<tr><th>diameter</th><td>2</td></tr>", data["text/html"])
        self.assertEqual(data["application/json"]["distribution"], [1, 4, 3])
        self.flush_channels()
        _, outputs = self.execute_helper(code="[diameter(g) for g in [slide2, slide3_easy]]")
        data = [o for o in outputs if o["msg_type"] == "execute_result"][0]["content"]["data"]
        html = data["text/html"]
        self.assertIn("<th>diameter</th><th>size</th><th>distribution</th>", html)
        self.assertEqual(html.count("<tr><td>"), 2)
        self.flush_channels()
        _, outputs = self.execute_helper(code="plot([3, 1, 2], title: \"three bars\")")
        data = [o for o in outputs if o["msg_type"] == "execute_result"][0]["content"]["data"]
        self.assertIn("<svg", data["image/svg+xml"])
        self.assertIn("three bars", data["image/svg+xml"])
        self.assertEqual(data["application/json"]["picture"], "three bars (a bar chart of 3 values)")
        self.assertIn("export(p, \"file.svg\")", data["text/plain"])
        self.flush_channels()
        _, outputs = self.execute_helper(code="1\nprint(\"two\")\n3")
        kinds = [
            (o["msg_type"], o["content"].get("text") or o["content"].get("data", {}).get("text/plain"))
            for o in outputs
            if o["msg_type"] in ("stream", "display_data", "execute_result")
        ]
        self.assertEqual(
            kinds, [("display_data", "1"), ("stream", "two\n"), ("execute_result", "3")]
        )

    def test_gamut_session_and_error_span(self):
        """Cells share one session; an error names its message and underlines the span."""
        self.flush_channels()
        self.execute_helper(code="let x = 20")
        _, outputs = self.execute_helper(code="x + 1")
        res = [o for o in outputs if o["msg_type"] == "execute_result"][0]
        self.assertEqual(res["content"]["data"]["text/plain"], "21")
        self.flush_channels()
        reply, outputs = self.execute_helper(code="x + nosuch")
        self.assertEqual(reply["content"]["status"], "error")
        err = [o for o in outputs if o["msg_type"] == "error"][0]["content"]
        self.assertIn("nosuch", err["evalue"])
        self.assertIn("here", "\n".join(err["traceback"]))

    def test_gamut_interrupt(self):
        """Interrupting the kernel cancels a running query; the session goes on."""
        self.flush_channels()
        msg_id = self.kc.execute("for i in 1..19000000 { for j in 1..19000000 { } }")
        time.sleep(1)
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=20)
        self.assertEqual(reply["parent_header"]["msg_id"], msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertEqual(reply["content"]["ename"], "Cancelled")
        self.flush_channels()
        _, outputs = self.execute_helper(code="1 + 1")
        res = [o for o in outputs if o["msg_type"] == "execute_result"][0]
        self.assertEqual(res["content"]["data"]["text/plain"], "2")


if __name__ == "__main__":
    unittest.main()
