#!/usr/bin/env python3
"""Layering check: library folders depend downward only, and L0 never calls L2.

Invariant: each library folder has a rank (LAYERS below); a quoted #include may reach only a
folder of lower rank or its own. Folders of equal rank are peers and may not include each
other (that is how a circle starts). Inside op_host/elementwise, *_l0.c may not call a
function defined in *_l2.c. Exit status 1 names every violation.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# folder -> rank; lower is further down. include/ is the public face every layer may use.
LAYERS = {
    "include": 0,
    "runtime": 1,
    "nnopbase": 2,
    "op_kernel": 2,
    "ascendc": 2,          # the AscendC twin: over the runtime only
    "op_host/elementwise": 3,
    "op_host/op_api": 4,
}

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
DEF_RE = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;]*?\)\s*\{", re.M)


def folder_of(path):
    """The layer folder a repository-relative path belongs to (longest match), or None."""
    best = None
    for folder in LAYERS:
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def sources():
    for folder in LAYERS:
        for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if name.endswith((".c", ".h", ".cc", ".cpp", ".hpp", ".inc")):
                    full = os.path.join(dirpath, name)
                    yield os.path.relpath(full, ROOT)


def owners_by_name(files):
    """Header basename or relative tail -> the folders that hold it."""
    owners = {}
    for path in files:
        parts = path.split("/")
        for i in range(len(parts)):
            owners.setdefault("/".join(parts[i:]), set()).add(folder_of(path))
    return owners


def main():
    files = sorted(set(sources()))
    owners = owners_by_name(files)
    errors = []
    for path in files:
        here = folder_of(path)
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        for target in INCLUDE_RE.findall(text):
            local = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if os.path.exists(os.path.join(ROOT, local)):
                to = {folder_of(local)}
            else:
                to = owners.get(target, set())
            for dest in to:
                if dest is None or dest == here:
                    continue
                if LAYERS[dest] > LAYERS[here]:
                    errors.append(f"{path}: includes {target} from {dest}, a layer above {here}")
                elif LAYERS[dest] == LAYERS[here]:
                    errors.append(f"{path}: includes {target} from peer layer {dest}")

    # L0 below L2 inside a folder that holds both.
    by_dir = {}
    for path in files:
        m = re.search(r"_(l0|l2)\.c$", path)
        if m:
            by_dir.setdefault(os.path.dirname(path), {}).setdefault(m.group(1), []).append(path)
    for d, kinds in by_dir.items():
        defined = {}
        for path in kinds.get("l2", []):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                for name in DEF_RE.findall(f.read()):
                    defined[name] = path
        for path in kinds.get("l0", []):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
            for name, where in defined.items():
                if re.search(r"\b" + re.escape(name) + r"\s*\(", text):
                    errors.append(f"{path}: calls {name}, defined in {where} (L0 calling up into L2)")

    for e in errors:
        print("check_layers:", e)
    if errors:
        return 1
    print(f"check_layers: {len(files)} files, {len(LAYERS)} layers, no upward arrow")
    return 0


if __name__ == "__main__":
    sys.exit(main())
