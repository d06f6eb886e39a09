#!/usr/bin/env python3
"""Document text fidelity: how much of each corpus document's text smart-context reads, against
a reference extractor run on the same file in the same run.

Every PDF, DOCX and XLSX file of ../shared/corpus (read from a scratch copy under
target/doc-fidelity, never from the repository) is read whole through the real MCP path
(`explore {paths: [file], view: "full"}` on one `smart-context serve` over stdio) and compared
word by word with poppler's `pdftotext` (PDF), python-docx (DOCX: paragraphs and table cells)
and openpyxl (XLSX: cell values). Words are lowercase runs of letters and digits; recall is the
share of the reference's words (as a multiset, both sides NFKC-normalized) that our text holds, precision the share of ours
the reference holds. Files the reference reads no words from are left out (scanned pages,
empty sheets), as are files either side refuses (encrypted, damaged).

Out of CI: it needs poppler-utils (`apt-get install poppler-utils`) and
`pip install python-docx openpyxl`.

Usage:
  scripts/doc-fidelity.py [--bin target/release/smart-context] [--format pdf] [--worst 10]
"""

import argparse
import collections
import datetime
import json
import re
import shutil
import statistics
import subprocess
import sys
import unicodedata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from mcp_stdio import Server  # noqa: E402

WORD = re.compile(r"[^\W_]+", re.UNICODE)
# What the full view adds around a document's text: page markers and empty-page notes, and a
# sheet's frame (what it holds, its column letters, its tables, each row's number).
MARKER = re.compile(
    r"^\[page \d+\]$|^\(no extractable text on this page.*\)$|^\(the text of this page could not be decoded.*\)$"
    r"|^.*![A-Z]+\d+:[A-Z]+\d+, \d+ rows x \d+ columns$|^.*: empty sheet$|^\t[A-Z\t]+$"
    r"|^table .* at [A-Z]+\d+:[A-Z]+\d+$|^columns: "
)
ROW_NUMBER = re.compile(r"^\d+\t")
# A page the parser left out as undecodable says so: not a silent loss.
UNDECODABLE = re.compile(r"^\(the text of this page could not be decoded", re.M)


def words(text):
    # NFKC on both sides: a ligature (U+FB01) and its letters are the same word.
    text = unicodedata.normalize("NFKC", text)
    return collections.Counter(w.lower() for w in WORD.findall(text))


def pdf_reference(path):
    out = subprocess.run(["pdftotext", "-q", str(path), "-"], capture_output=True, timeout=60)
    return out.stdout.decode("utf-8", "replace") if out.returncode == 0 else None


def docx_reference(path):
    import docx

    try:
        d = docx.Document(str(path))
    except Exception:
        return None
    parts = [p.text for p in d.paragraphs]
    for table in d.tables:
        for row in table.rows:
            parts.extend(cell.text for cell in row.cells)
    return "\n".join(parts)


def cell_text(value):
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    return str(value)


def xlsx_reference(path):
    import warnings

    import openpyxl

    warnings.simplefilter("ignore")

    try:
        book = openpyxl.load_workbook(str(path), read_only=True, data_only=True)
        parts = []
        for sheet in book.worksheets:
            for row in sheet.iter_rows(values_only=True):
                parts.extend(cell_text(v) for v in row if v is not None)
        return "\n".join(parts)
    except Exception:
        return None


FORMATS = {
    "pdf": (("pdf",), "pdf", pdf_reference),
    "docx": (("docx", "docm"), "office", docx_reference),
    "xlsx": (("xlsx", "xlsm"), "office", xlsx_reference),
}


def ours(server, rel):
    msg = server.request("tools/call", {"name": "explore", "arguments": {
        "paths": [rel], "view": "full",
        "limits": {"maxChars": 20_000_000, "maxBytes": 64 << 20},
    }})
    r = (msg.get("result") or {}).get("structuredContent") or {}
    items = (r.get("data") or {}).get("docs") or []
    if r.get("status") != "ok" or not items or items[0].get("kind") != "file_full":
        return None, r.get("code") or r.get("status")
    text = items[0].get("content") or ""
    said = bool(UNDECODABLE.search(text))
    kept = "\n".join(
        ROW_NUMBER.sub("", line) if rel.startswith("xlsx-") else line
        for line in text.splitlines()
        if not MARKER.match(line.rstrip("\n"))
    )
    return kept, said


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/smart-context")
    ap.add_argument("--corpus", default="../shared/corpus")
    ap.add_argument("--format", choices=sorted(FORMATS), action="append")
    ap.add_argument("--worst", type=int, default=10)
    ap.add_argument("--json", help="write every file's recall and precision here")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    root = Path("target/doc-fidelity/root")
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    for fmt in args.format or sorted(FORMATS):
        exts, folder, _ = FORMATS[fmt]
        for f in sorted((corpus / folder).iterdir()):
            if f.suffix.lower().lstrip(".") in exts:
                shutil.copy(f, root / f"{fmt}-{f.name}")
    server = Server(args.bin, root)
    report = {}
    try:
        for fmt in args.format or sorted(FORMATS):
            _, _, reference = FORMATS[fmt]
            rows, refused, empty = [], collections.Counter(), 0
            for f in sorted(root.glob(f"{fmt}-*")):
                ref = reference(f)
                if ref is None:
                    refused["reference"] += 1
                    continue
                want = words(ref)
                if not want:
                    empty += 1
                    continue
                text, said = ours(server, f.name)
                if text is None:
                    refused[said] += 1
                    continue
                got = words(text)
                common = sum((want & got).values())
                recall = common / sum(want.values())
                precision = common / max(1, sum(got.values()))
                rows.append((recall, precision, f.name[len(fmt) + 1:], said))
            if not rows:
                print(f"{fmt}: nothing compared")
                continue
            report[fmt] = {name: [r, p] for r, p, name, _ in rows}
            recalls = [r for r, _, _, _ in rows]
            precisions = [p for _, p, _, _ in rows]
            print(f"{fmt}: {len(rows)} files compared ({empty} with no reference words, refused: {dict(refused)})")
            print(f"  word recall    median {statistics.median(recalls):.3f}, worst decile (p10) {percentile(recalls, 0.1):.3f}, min {min(recalls):.3f}, mean {statistics.mean(recalls):.3f}, under 0.5: {sum(r < 0.5 for r in recalls)}")
            print(f"  word precision median {statistics.median(precisions):.3f}, worst decile (p10) {percentile(precisions, 0.1):.3f}, min {min(precisions):.3f}")
            said = [name for r, _, name, s in rows if s]
            print(f"  files with a page left out as undecodable (said so, with its reason): {len(said)}, "
                  f"{sum(1 for r, _, _, s in rows if s and r < 0.5)} of them under 0.5")
            for r, p, name, s in sorted(rows)[: args.worst]:
                print(f"    {r:.3f} / {p:.3f}  {name}{'  (said undecodable)' if s else ''}")
    finally:
        server.close()
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
