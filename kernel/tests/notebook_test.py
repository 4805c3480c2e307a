"""Executes notebooks/kayles.ipynb with the gamut kernel and compares each code cell's result
with the golden output of the same computation in examples/kayles.out."""
import pathlib
import unittest

import nbclient
import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[2]


class KaylesNotebook(unittest.TestCase):
    def test_outputs_match_the_golden_example(self):
        nb = nbformat.read(ROOT / "notebooks" / "kayles.ipynb", as_version=4)
        nbclient.NotebookClient(nb, kernel_name="gamut", timeout=300).execute()
        golden = (ROOT / "examples" / "kayles.out").read_text()
        results = []
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            outs = [o for o in cell.outputs if o.output_type == "execute_result"]
            self.assertEqual(len(outs), 1, cell.source)
            results.append(outs[0].data)
        self.assertEqual(len(results), 4)
        for data in results:
            self.assertIn(data["text/plain"] + "\n", golden)
        # the table comes as HTML too
        self.assertIn("<th>12</th>", results[-1]["text/html"])


if __name__ == "__main__":
    unittest.main()
