#!/usr/bin/env python3
"""Point the built book's links to files outside it at the repository.

The manual links to scenarios, reports, recipes and the changelog by
relative paths (`../../scenarios/manual/too-easy.toml`), which is right
when the Markdown is read in the repository but leaves the site once
mdbook has built it (and mdbook turns `.md` into `.html` on the way).
This rewrites every such link in the built HTML to the file at `BASE`
(`https://github.com/OWNER/oddsmith/blob/REF`), and fails if any
relative link still points outside the book or at a page it lacks.

    python3 .ci/book_links.py BOOK_DIR DOCS_SRC BASE
"""

import os
import re
import sys

HREF = re.compile(r'(href|src)="([^"#?:]+)([#?][^"]*)?"')


def main(book, src, base):
    book, src = os.path.abspath(book), os.path.abspath(src)
    repo = os.path.dirname(os.path.dirname(src))
    problems, rewritten = [], 0
    for folder, _, names in os.walk(book):
        for name in names:
            if not name.endswith(".html"):
                continue
            page = os.path.join(folder, name)
            # The page's Markdown sits at the same place under docs/src.
            page_src = os.path.join(src, os.path.relpath(folder, book))
            with open(page, encoding="utf-8") as f:
                html = f.read()

            def fix(m):
                nonlocal rewritten
                attr, target, tail = m.group(1), m.group(2), m.group(3) or ""
                if target.startswith(("/", "data")):
                    return m.group(0)
                inside = os.path.normpath(os.path.join(folder, target))
                if inside == book or inside.startswith(book + os.sep):
                    if not os.path.exists(inside):
                        problems.append(f"{os.path.relpath(page, book)}: {target} is not in the book")
                    return m.group(0)
                source = os.path.normpath(os.path.join(page_src, target))
                # mdbook wrote `x.md` as `x.html`: link the Markdown.
                if source.endswith(".html") and os.path.exists(source[:-5] + ".md"):
                    source = source[:-5] + ".md"
                if not source.startswith(repo + os.sep) or not os.path.exists(source):
                    problems.append(f"{os.path.relpath(page, book)}: {target} leaves the book and is no file of the repository")
                    return m.group(0)
                rewritten += 1
                return f'{attr}="{base}/{os.path.relpath(source, repo)}{tail}"'

            fixed = HREF.sub(fix, html)
            if fixed != html:
                with open(page, "w", encoding="utf-8") as f:
                    f.write(fixed)
    for p in problems:
        print(f"book_links: {p}", file=sys.stderr)
    print(f"book_links: {rewritten} links to the repository rewritten to {base}")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
