#!/usr/bin/env python3
"""tests/docs/doc_links.py SRC: every relative link of README.md, python/README.md and docs/*.md
resolves: the file or folder exists, and a #fragment into a .md page names one of its headings
(GitHub's rule: lower case, punctuation dropped, spaces to hyphens). Links inside fenced code
are not links. Exit status 1 names each broken one."""
import os
import re
import sys


def slug(heading):
    heading = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return heading.replace(" ", "-")


def outside_code(text):
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def anchors(path):
    with open(path, encoding="utf-8") as f:
        text = outside_code(f.read())
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}


def main():
    root = sys.argv[1]
    docs = os.path.join(root, "docs")
    pages = [os.path.join(root, "README.md"), os.path.join(root, "python", "README.md")]
    pages += sorted(os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))
    checked = broken = 0
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = outside_code(f.read())
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", link):  # http:, https:, mailto:
                continue
            checked += 1
            path, _, fragment = link.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            where = os.path.relpath(page, root)
            if not os.path.exists(target):
                print(f"FAIL {where}: {link} does not exist")
                broken += 1
            elif fragment and target.endswith(".md") and fragment not in anchors(target):
                print(f"FAIL {where}: {link} names no heading of {os.path.relpath(target, root)}")
                broken += 1
    print(f"{checked} links, {broken} broken")
    return 1 if broken or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
