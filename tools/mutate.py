#!/usr/bin/env python3
"""tools/mutate.py: mutation testing of MishGradV2's C code (issue 10). Not part of CI.

    python3 tools/mutate.py                      # 30 mutants per layer, seed 1
    python3 tools/mutate.py --per-layer 40 --seed 7 --layers runtime,nnopbase
    python3 tools/mutate.py --plant tools/mutate_planted.txt   # the issue's planted bugs
    python3 tools/mutate.py --list               # show the layers and their mutation sites

What it does, in build-mutate/ (git-ignored):

1. copies the tree (tracked and untracked, not ignored files) into build-mutate/src, and
   builds it once with Ninja (Release, tests on, bench and tools off), executables not
   relinked when a shared library changes (CMAKE_LINK_DEPENDS_NO_SHARED), so a mutant
   rebuilds only the object it touches and what links it;
2. lists every mutation site of each layer's code (its own mutator: one token of one line:
   a relational, equality, logical, arithmetic, shift, bitwise or increment operator swapped,
   a `!` removed, an integer constant changed, a whole-line statement deleted; never inside
   comments, strings or log calls) and draws a fixed, seeded sample per layer;
3. for each mutant: writes it into the copy, rebuilds, and discards it when it does not
   compile or when every rebuilt object file is byte-identical to the original build's
   (the compiler proved it equivalent, or the code is not built on this machine, e.g. NEON
   on x86), and, without building, when no compilation of the build reads the file (Ninja's
   dependency log; e.g. the ops-nn generator's source, built only at test time); otherwise runs the test subset (every CTest test but the soak and the package
   tests, those that killed most mutants of the layer first) and stops at the first test
   that fails or times out (killed); a mutant that passes them all survived. Draws continue
   until --per-layer mutants per layer were judged (or the layer's sites run out).
4. writes build-mutate/report.md (per layer: judged, killed, survived, kill rate; every
   survivor with its diff) and build-mutate/results.jsonl (one line per mutant; --resume
   skips the ones already there).

The python layer is judged by the package's pytest suite, run with the interpreter that
MISHGRAD_MUTATE_PYTHON names (e.g. MISHGRAD_MUTATE_PYTHON=venv/bin/python, a virtual
environment with pytest and NumPy); unset, /usr/bin/python3. Without pytest there, that
layer is not judged.

--plant FILE reads mutants written by hand, one per line, `path:line: old => new` (the
first `old` on that line becomes `new`; `#` starts a comment) and reports for each whether
the tests kill it. Exit status: 0, or 1 when a planted mutant survived.
"""

import argparse
import fnmatch
import glob
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Layers: (name, description, globs). Tiling and L0 share op_host/elementwise/elementwise_l0.c;
# they are told apart by function (TILING_FUNCTIONS) below.
LAYERS = [
    ("runtime", "libascendcl: devices, memory, streams, thread pool, handles, errors", ["runtime/*.c", "runtime/*.h"]),
    ("nnopbase", "libnnopbase: tensors, views, executors, Contiguous / ViewCopy", ["nnopbase/*.c", "nnopbase/*.h"]),
    # The one overlap answer compiled into both libraries (geometry/mg_strided.h): out of
    # runtime/ and nnopbase/ since issue 26, and so out of every layer until it got its own.
    ("geometry", "do two strided accesses overlap: the runtime's race check, phase 1's plan",
     ["geometry/*.c", "geometry/*.h"]),
    ("op_host_l2", "operator API: aclnn* entry points and the elementwise layer's checks and plan",
     ["op_host/op_api/aclnn_*.c", "op_host/elementwise/*_l2.c", "op_host/elementwise/*_dtype.c",
      "op_host/elementwise/*.h", "op_host/op_api/*.h"]),
    ("op_host_l0", "operator launch: l0op kernel steps, the elementwise kernel step",
     ["op_host/op_api/*.c", "op_host/elementwise/*_l0.c", "op_host/*.c"]),
    ("op_host_tiling", "tiling: blocks, tiles, threads, streaming choice, the block runner",
     ["op_host/elementwise/*_l0.c", "op_host/*tiling*.c"]),
    ("op_kernel", "kernels: math, ISA vocabularies, dispatch",
     ["op_kernel/*.c", "op_kernel/*.h", "op_kernel/simd/*.h", "op_kernel/math/*.h"]),
    # The AscendC twin's C core (ascendc/core: launch, queues, kernel registry); the glob takes
    # the files the twin gains later (its vector core model) without a change here.
    ("twin", "the AscendC twin's C core: kernel registry, launch, queues, the vector core model",
     ["ascendc/core/*.c", "ascendc/core/*.h"]),
    # CANN's C++ faces the twin builds ops-nn operator directories with: the AscendC kernel
    # API over the twin's core (asc_face), op_api's l0/l2 framework (opdev), tiling (optiling),
    # the generated aclnn entries and the kernel launcher (opbuild). Judged by the CTest tests
    # (the face, opdev, optiling and op_api harness suites, the twin's).
    ("faces", "CANN's C++ faces: asc_face, opdev, optiling, opbuild",
     ["ascendc/include/asc_face/*.h", "ascendc/face/*.c", "opdev/src/*.c", "opdev/src/*.cpp", "opdev/src/*.h",
      "optiling/src/*.c", "optiling/src/*.cpp", "opbuild/src/*.c", "opbuild/src/*.cpp", "opbuild/src/*.h"]),
    # The Python package's C extension, judged by its pytest suite (PYTHON_TEST below), not CTest.
    ("python", "the mishgrad package's extension: arguments, tensors, host memory, errors",
     ["python/csrc/*.c", "python/csrc/*.h"]),
]
# Layers whose tests are not the CTest tests: the package's pytest suite, run against the
# extension built from the copy (python/CMakeLists.txt, a build of its own) and staged with
# the package's Python files, as the wheel lays them out.
PYTHON_LAYERS = {"python"}
# In these files, the functions whose names match belong to the tiling layer (with the
# file's top-level #define constants); the rest of the file is L0.
TILING_FILES = ["op_host/elementwise/*_l0.c", "op_host/*tiling*.c"]
TILING_FUNCTIONS = re.compile(r"^(ew_tile|run_block)$|tiling")

DEFAULT_EXCLUDE = r"soak|^package\."

# ---- reading C lines ------------------------------------------------------------------

TOKEN = re.compile(
    r"(?P<num>0[xX][0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?(?:[pP][+-]?\d+)?[uUlLfF]*|\d+\.\d*(?:[eE][+-]?\d+)?[fFlL]?"
    r"|\d+[eE][+-]?\d+[fFlL]?|\.\d+(?:[eE][+-]?\d+)?[fFlL]?|\d+[uUlL]*)"
    r"|(?P<id>[A-Za-z_]\w*)"
    r"|(?P<op><<=|>>=|<<|>>|<=|>=|==|!=|->|&&|\|\||\+\+|--|\+=|-=|\*=|/=|%=|&=|\|=|\^=|[-+*/%<>!&|^~=?:;,(){}\[\].])"
    r"|(?P<ws>\s+)|(?P<other>.)")

SWAPS = {
    "<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==",
    "&&": "||", "||": "&&", "+": "-", "-": "+", "/": "*", "%": "/",
    "<<": ">>", ">>": "<<", "++": "--", "--": "++", "+=": "-=", "-=": "+=",
    "&": "|", "|": "&", "^": "&",
}
BINARY_CONTEXT = {"&", "|", "^", "+", "-"}  # only after an operand (not unary, not address-of)
STATEMENT_SKIP = re.compile(r"^(return|break|continue|case|default|goto|else|do|if|for|while|switch|typedef|static|"
                            r"const|struct|enum|union|extern|register|volatile|unsigned|signed|int|long|short|char|"
                            r"float|double|void|size_t|int\d+_t|uint\d+_t|uintptr_t|aclnnStatus|aclError)\b")
LOG_CALL = re.compile(r"\bmgrt_log\s*\(")


def mask_line(line, in_comment):
    """The line with comments and string/char literals blanked (same length), and whether a
    block comment continues past it."""
    out = []
    i, n = 0, len(line)
    while i < n:
        if in_comment:
            end = line.find("*/", i)
            if end < 0:
                out.append(" " * (n - i))
                return "".join(out), True
            out.append(" " * (end + 2 - i))
            i = end + 2
            in_comment = False
            continue
        c = line[i]
        if line.startswith("/*", i):
            in_comment = True
            continue
        if line.startswith("//", i):
            out.append(" " * (n - i))
            break
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else " " * (j - i))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out), in_comment


LOG_ONLY_BLOCK = re.compile(r"^\s*if \(mgrt_log_enabled\(MGRT_LOG_(INFO|DEBUG)\)\)\s*\{\s*$")


def log_only_lines(masked):
    """Lines of blocks `if (mgrt_log_enabled(MGRT_LOG_INFO|DEBUG)) { ... }`: they only format
    an info/debug log line, whose text is not behaviour a caller can rely on (and the tests
    run at the default level, where such a block never runs). Their mutants stay in the
    seeded order (so excluding them changes no other draw) but are never judged."""
    lines, block_depth = set(), 0
    for k, text in enumerate(masked):
        if block_depth > 0:
            lines.add(k)
            block_depth += text.count("{") - text.count("}")
        elif LOG_ONLY_BLOCK.match(text):
            lines.add(k)
            block_depth = text.count("{") - text.count("}")
    return lines


def excluded_lines(masked):
    """Lines no mutant may touch: preprocessor lines other than `#define NAME constant`, every
    line of a log call, and blocks `if (mgrt_log_enabled(MGRT_LOG_INFO|DEBUG)) { ... }` that
    only format an info/debug log line are marked by log_only_lines instead."""
    skip = set()
    depth, in_log = 0, False
    for k, text in enumerate(masked):
        s = text.strip()
        if s.startswith("#") and not re.match(r"#\s*define\s+\w+\s+[-(]*\w", s):
            skip.add(k)
        if not in_log and LOG_CALL.search(text):
            in_log, depth = True, 0
        if in_log:
            skip.add(k)
            depth += text.count("(") - text.count(")")
            if depth <= 0 and ";" in text:
                in_log = False
    return skip


def function_of_lines(masked):
    """For each line, the name of the function whose body holds it ('' outside)."""
    names, current, depth = [], "", 0
    pending = ""
    for text in masked:
        if depth == 0:
            m = re.match(r"^[A-Za-z_][\w\s\*]*?\b(\w+)\s*\(", text)
            if m and not text.rstrip().endswith(";"):
                pending = m.group(1)
        opened = text.count("{")
        if depth == 0 and opened and pending:
            current = pending
        names.append(current if depth > 0 or opened else "")
        depth += opened - text.count("}")
        if depth <= 0:
            depth, current = 0, ""
            if opened or text.strip().startswith("}"):
                pending = ""
    return names


def sites_of_file(path, rel):
    """Every mutation site of a file: (line index, column, old, new, kind)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    masked, in_comment = [], False
    for line in lines:
        m, in_comment = mask_line(line, in_comment)
        masked.append(m)
    skip = excluded_lines(masked)
    sites = []
    previous = ";"  # the last code line before this one
    for k, text in enumerate(masked):
        continued = previous and previous[-1] not in ";{}:" and not previous.startswith("#")
        if text.strip():
            previous = text.strip()
        if k in skip or not text.strip():
            continue
        tokens = [(m.lastgroup, m.group(), m.start()) for m in TOKEN.finditer(text)]
        tokens = [t for t in tokens if t[0] != "ws"]
        is_define = text.strip().startswith("#")
        for index, (kind, tok, col) in enumerate(tokens):
            prev = tokens[index - 1] if index > 0 else None
            if kind == "op" and tok in SWAPS:
                if tok in ("<", ">") and prev and prev[1] in ("include",):
                    continue
                if tok in BINARY_CONTEXT:
                    if prev is None or not (prev[0] in ("id", "num") or prev[1] in (")", "]")):
                        continue
                    if prev[0] == "id" and prev[1] in ("return", "case"):
                        continue
                sites.append((k, col, tok, SWAPS[tok], "operator"))
            elif kind == "op" and tok == "!" :
                sites.append((k, col, "!", "", "negation"))
            elif kind == "num" and re.fullmatch(r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*", tok):
                # array sizes in declarations change no behaviour on their own
                if prev and prev[1] == "[" and re.match(r"^\s*(static\s+|const\s+)*[A-Za-z_]\w*[\s\*]+\w+\s*\[", text):
                    continue
                digits = re.match(r"(0[xX][0-9a-fA-F]+|\d+)", tok).group(1)
                suffix = tok[len(digits):]
                octal = len(digits) > 1 and digits.startswith("0") and not digits.lower().startswith("0x")
                value = int(digits, 8) if octal else int(digits, 0)  # C's 0750 is octal (a file mode)
                new_value = 1 if value == 0 else 0 if value == 1 else value + 1
                if octal:
                    new = "0%o" % new_value + suffix
                else:
                    new = (hex(new_value) if digits.lower().startswith("0x") else str(new_value)) + suffix
                sites.append((k, col, tok, new, "constant"))
        s = text.strip()
        if (not is_define and not continued and s.endswith(";") and re.match(r"^[A-Za-z_(*]", s) and not STATEMENT_SKIP.match(s)
                and not s.startswith("(void)")
                and s.count("(") == s.count(")") and "{" not in s and "}" not in s
                and not re.match(r"^[A-Za-z_]\w*(\s*\*)*\s+\**[A-Za-z_]\w*\s*(=|;|\[)", s)):
            col = len(text) - len(text.lstrip())
            sites.append((k, col, lines[k][col:].rstrip(), ";", "statement deleted"))
    return lines, masked, sites


def layer_files(globs):
    """The files of a layer's globs, each glob's matches sorted; `*` stays within one folder
    (so a folder may be a pattern too: `ops/*/op_host/*.cpp`)."""
    out = []
    for g in globs:
        for path in sorted(glob.glob(os.path.join(ROOT, g))):
            rel = os.path.relpath(path, ROOT)
            if os.path.isfile(path) and rel not in out:
                out.append(rel)
    return out


def all_sites():
    """{layer: [mutant dict]} for the tree under ROOT."""
    per_layer = {}
    claimed = set()
    for name, _, globs in LAYERS:
        mutants = []
        for rel in layer_files(globs):
            tiling_file = any(fnmatch.fnmatch(rel, g) for g in TILING_FILES)
            if name == "op_host_l0" and fnmatch.fnmatch(rel, "op_host/op_api/aclnn_*.c"):
                continue
            if name == "op_host_l0" and tiling_file and "elementwise" not in rel:
                continue  # a whole tiling file belongs to tiling
            lines, masked, sites = sites_of_file(os.path.join(ROOT, rel), rel)
            funcs = function_of_lines(masked)
            log_only = log_only_lines(masked)
            for (k, col, old, new, kind) in sites:
                if tiling_file and "elementwise" in rel:
                    in_tiling = TILING_FUNCTIONS.search(funcs[k] or "") or (not funcs[k] and masked[k].strip().startswith("#"))
                    if (name == "op_host_tiling") != bool(in_tiling):
                        continue
                key = (rel, k, col, old, new)
                if key in claimed:
                    continue
                claimed.add(key)
                mutants.append({"layer": name, "file": rel, "line": k + 1, "col": col, "old": old, "new": new,
                                "kind": kind, "text": lines[k].strip(), "log_only": k in log_only,
                                "id": hashlib.sha1(repr(key).encode()).hexdigest()[:12]})
        per_layer[name] = mutants
    return per_layer


def mutated_line(line, m):
    """`line` as mutant `m` changes it, or None when the text at the mutant's column is no
    longer what it replaces. The one place a mutant's substitution is spelled."""
    if m["kind"] == "statement deleted":
        return line[:m["col"]] + ";"
    if line[m["col"]:m["col"] + len(m["old"])] != m["old"]:
        return None
    return line[:m["col"]] + m["new"] + line[m["col"] + len(m["old"]):]


def apply_mutant(src_root, m):
    path = os.path.join(src_root, m["file"])
    with open(path, encoding="utf-8") as f:
        original = f.read()
    lines = original.split("\n")
    mutated = mutated_line(lines[m["line"] - 1], m)
    if mutated is None:
        raise RuntimeError("mutant %s no longer matches %s:%d" % (m["id"], m["file"], m["line"]))
    lines[m["line"] - 1] = mutated
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return path, original


_source_lines = {}


def mutated_text(r):
    """The stripped line as mutant `r` changes it, from the file under ROOT (None when the
    line has changed since the mutant was drawn)."""
    if r["kind"] == "statement deleted":
        return ";"
    if r["file"] not in _source_lines:
        try:
            with open(os.path.join(ROOT, r["file"]), encoding="utf-8") as f:
                _source_lines[r["file"]] = f.read().split("\n")
        except OSError:
            _source_lines[r["file"]] = []
    lines = _source_lines[r["file"]]
    if r["line"] > len(lines):
        return None
    line = lines[r["line"] - 1]
    mutated = mutated_line(line, r) if line.strip() == r["text"] else None
    return mutated.strip() if mutated is not None else None


# ---- build and tests ----------------------------------------------------------------

def run(cmd, cwd=None, timeout=None, env=None):
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode(errors="replace"), False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        return -9, out.decode(errors="replace"), True


def sync_tree(src_root):
    """Copies tracked and untracked (not ignored) files into src_root, only those that
    changed, so unchanged files keep their times and are not rebuilt."""
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "-z"], check=True,
                            stdout=subprocess.PIPE).stdout.decode().split("\0")
    wanted = set()
    for rel in listed:
        if not rel or not os.path.isfile(os.path.join(ROOT, rel)):
            continue
        wanted.add(rel)
        a, b = os.path.join(ROOT, rel), os.path.join(src_root, rel)
        if os.path.exists(b):
            with open(a, "rb") as fa, open(b, "rb") as fb:
                if fa.read() == fb.read():
                    continue
        os.makedirs(os.path.dirname(b), exist_ok=True)
        # a fresh time stamp (not copy2's): a file put back after an interrupted mutant is
        # older than the mutant's object, and Ninja would not rebuild it
        shutil.copyfile(a, b)
        shutil.copymode(a, b)
    for dirpath, _, files in os.walk(src_root):
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), src_root)
            if rel not in wanted:
                os.remove(os.path.join(dirpath, name))


def object_hashes(build_dir):
    """The object files the build itself compiles (Ninja's targets), by hash. Only those: the
    tests build projects of their own under the build folder (the ops-nn driver's tests),
    whose objects appear after the baseline and change from run to run, and would make every
    mutant look like a code change."""
    code, out, _ = run(["ninja", "-C", build_dir, "-t", "targets", "all"])
    objects = [line.split(": ", 1)[0] for line in out.split("\n") if line.split(": ", 1)[0].endswith(".o")]
    hashes = {}
    for rel in objects:
        p = os.path.join(build_dir, rel)
        if os.path.exists(p):
            with open(p, "rb") as f:
                hashes[p] = hashlib.sha1(f.read()).hexdigest()
    return hashes


def compiled_inputs(build_dir):
    """Every file the build's compilations read (sources and the headers they include), as
    real paths, from Ninja's dependency log. A mutant in a file outside this set cannot
    change the build's code: the file is compiled elsewhere (the ops-nn generator's targets
    in OpsNn.cmake build opbuild/src/aclnn_gen.cpp at test time) or not on this machine."""
    code, out, _ = run(["ninja", "-C", build_dir, "-t", "deps"])
    inputs = set()
    if code != 0:
        return inputs
    for line in out.split("\n"):
        if line.startswith("    ") and line.strip():
            path = line.strip()
            inputs.add(os.path.realpath(path if os.path.isabs(path) else os.path.join(build_dir, path)))
    return inputs


def build(build_dir, jobs, timeout=600):
    return run(["ninja", "-C", build_dir, "-j", str(jobs)], timeout=timeout)


def load_tests(build_dir, exclude, label=None):
    out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"], check=True,
                         stdout=subprocess.PIPE).stdout
    tests = []
    for t in json.loads(out)["tests"]:
        if exclude and re.search(exclude, t["name"]):
            continue
        if "command" not in t:  # its program is not built (a target left out of the build)
            continue
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        if label and label not in (props.get("LABELS") or []):
            continue
        env = dict(os.environ)
        for kv in props.get("ENVIRONMENT", []) or []:
            k, _, v = kv.partition("=")
            env[k] = v
        # ENVIRONMENT_MODIFICATION too (the tests' log folder, ASCEND_PROCESS_LOG_PATH, is set
        # this way): without it a test reads the log of whatever root the caller's environment
        # names and fails unmutated, leaving the mutants it would have judged to other tests
        for kv in props.get("ENVIRONMENT_MODIFICATION", []) or []:
            k, _, rest = kv.partition("=")
            op, _, v = rest.partition(":")
            if op == "set":
                env[k] = v
            elif op in ("unset", "reset"):
                env.pop(k, None)
                if op == "reset" and k in os.environ:
                    env[k] = os.environ[k]
            elif op == "string_append":
                env[k] = env.get(k, "") + v
            elif op == "string_prepend":
                env[k] = v + env.get(k, "")
            elif op in ("path_list_append", "path_list_prepend"):
                parts = [x for x in env.get(k, "").split(os.pathsep) if x]
                env[k] = os.pathsep.join(parts + [v] if op == "path_list_append" else [v] + parts)
        tests.append({"name": t["name"], "command": t["command"], "env": env,
                      "cwd": props.get("WORKING_DIRECTORY", build_dir),
                      "skip_code": props.get("SKIP_RETURN_CODE"), "will_fail": props.get("WILL_FAIL", False)})
    return tests


def python_setup(src_root, work, jobs):
    """Configures and builds the extension from the copy (build-mutate/pybuild) and returns
    the synthetic test that stages it and runs pytest; None when Python's development files
    or pytest are missing (the python layer is then not judged). MISHGRAD_MUTATE_PYTHON names
    the interpreter (a virtual environment's, with pytest, NumPy and perhaps torch); unset, the
    system's /usr/bin/python3 (else this one)."""
    py = os.environ.get("MISHGRAD_MUTATE_PYTHON", "")
    if py:
        py = os.path.abspath(py)  # the tests run from other directories
        if not os.access(py, os.X_OK):
            print("mutate.py: MISHGRAD_MUTATE_PYTHON=%s is not an executable: the python layer is not judged" % py,
                  file=sys.stderr)
            return None, None
    else:
        py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    if run([py, "-c", "import pytest"])[0] != 0:
        print("mutate.py: no pytest for %s: the python layer is not judged (MISHGRAD_MUTATE_PYTHON names "
              "an interpreter that has it)" % py, file=sys.stderr)
        return None, None
    pybuild = os.path.join(work, "pybuild")
    if not os.path.exists(os.path.join(pybuild, "build.ninja")):
        code, out, _ = run(["cmake", "-S", os.path.join(src_root, "python"), "-B", pybuild, "-G", "Ninja",
                            "-DCMAKE_BUILD_TYPE=Release", "-DPython_EXECUTABLE=" + py,
                            "-DCMAKE_LINK_DEPENDS_NO_SHARED=ON"])
        if code != 0:
            print(out[-3000:])
            print("mutate.py: the extension's build cannot be configured: the python layer is not judged",
                  file=sys.stderr)
            return None, None
    stage = os.path.join(work, "pystage")
    version = re.search(r"project\(MishGradV2 VERSION ([0-9.]+)", open(os.path.join(src_root, "CMakeLists.txt")).read())
    script = ("set -e; rm -rf {stage}; cmake --install {pybuild} --component python --prefix {stage} >/dev/null; "
              "cp {src}/python/src/mishgrad/* {stage}/mishgrad/; "
              "echo '__version__ = \"{version}\"' > {stage}/mishgrad/_version.py; "
              "cd {src}/python/tests; PYTHONPATH={stage} exec {py} -m pytest -q -x -p no:cacheprovider .").format(
                  stage=stage, pybuild=pybuild, src=src_root, py=py, version=version.group(1) if version else "0")
    test = {"name": "python.pytest", "command": ["bash", "-c", script], "env": dict(os.environ), "cwd": work,
            "skip_code": None, "will_fail": False}
    return pybuild, test


def run_test(t, timeout):
    start = time.time()
    code, out, timed_out = run(t["command"], cwd=t["cwd"], env=t["env"], timeout=timeout)
    elapsed = time.time() - start
    if timed_out:
        return "timeout", elapsed, out
    if t["skip_code"] is not None and code == int(t["skip_code"]):
        return "skipped", elapsed, out
    passed = (code == 0) != bool(t["will_fail"])
    return ("passed" if passed else "failed"), elapsed, out


# ---- the run ------------------------------------------------------------------------

def main():
    # SIGTERM (and SIGINT, ignored in a background job otherwise) unwinds like an exception,
    # so the mutant being judged is taken out of the copy before the tool exits
    def stop(signum, frame):
        raise SystemExit("mutate.py: stopped by signal %d" % signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-layer", type=int, default=30, help="mutants judged per layer (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    ap.add_argument("--layers", default="", help="comma-separated layers (default: all)")
    ap.add_argument("--timeout", type=int, default=180, help="seconds per mutant's tests (default 180)")
    ap.add_argument("--jobs", type=int, default=2, help="build parallelism (default 2)")
    ap.add_argument("--exclude", default=DEFAULT_EXCLUDE, help="CTest names left out (regex, default %(default)s)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build-mutate"), help="work directory")
    ap.add_argument("--resume", action="store_true", help="keep results.jsonl and skip mutants already judged")
    ap.add_argument("--rejudge-timeouts", action="store_true",
                    help="with --resume: judge again the mutants killed only by a test's timeout")
    ap.add_argument("--rejudge-survivors", action="store_true",
                    help="with --resume: judge again the survivors (after tests were added)")
    ap.add_argument("--tsan", action="store_true",
                    help="judge the survivors again with a ThreadSanitizer build and the `threads` tests")
    ap.add_argument("--asan", action="store_true",
                    help="judge the survivors again with an ASan+UBSan build and every test but the accuracy sweeps")
    ap.add_argument("--by-line", action="store_true",
                    help="draw source lines at random (one site of each), not sites (see seeded_pool)")
    ap.add_argument("--plant", help="judge the hand-written mutants of this file instead of sampling")
    ap.add_argument("--report-only", action="store_true", help="write report.md from results.jsonl and exit")
    ap.add_argument("--list", action="store_true", help="print the layers' files and site counts, then exit")
    args = ap.parse_args()
    args.work = os.path.abspath(args.work)  # the pytest stage's script runs in another directory

    per_layer = all_sites()
    layers = [l for l, _, _ in LAYERS if not args.layers or l in args.layers.split(",")]
    if args.list:
        for l, desc, _ in LAYERS:
            files = sorted({m["file"] for m in per_layer[l]})
            print("%-15s %4d sites (%d of them info/debug log formatting, not judged)  %s\n                 %s" % (
                l, len(per_layer[l]), sum(bool(m.get("log_only")) for m in per_layer[l]), desc, " ".join(files)))
        return 0

    if args.report_only:
        write_report(args, os.path.join(args.work, "results.jsonl"), per_layer, layers)
        return 0
    src_root = os.path.join(args.work, "src")
    build_dir = os.path.join(args.work, "build")
    os.makedirs(src_root, exist_ok=True)
    sync_tree(src_root)
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        code, out, _ = run(["cmake", "-S", src_root, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                            "-DMISHGRAD_BUILD_BENCH=OFF", "-DMISHGRAD_BUILD_TOOLS=OFF", "-DMISHGRAD_BUILD_TESTS=ON",
                            "-DCMAKE_LINK_DEPENDS_NO_SHARED=ON"])
        if code != 0:
            print(out)
            return 2
    code, out, _ = build(build_dir, args.jobs)
    if code != 0:
        print(out[-4000:])
        print("mutate.py: the unmutated tree does not build", file=sys.stderr)
        return 2
    pybuild, pytest_test = (None, None)
    if any(l in PYTHON_LAYERS for l in layers) or args.plant:
        pybuild, pytest_test = python_setup(src_root, args.work, args.jobs)
        if pybuild is not None:
            code, out, _ = build(pybuild, args.jobs)
            if code != 0:
                print(out[-4000:])
                print("mutate.py: the unmutated extension does not build", file=sys.stderr)
                return 2
    build_dirs = [build_dir] + ([pybuild] if pybuild else [])

    def build_all():
        for d in build_dirs:
            code, out, timed_out = build(d, args.jobs)
            if code != 0:
                return code, out, timed_out
        return 0, "", False

    def hashes_all():
        h = {}
        for d in build_dirs:
            h.update(object_hashes(d))
        return h

    baseline_objects = hashes_all()
    compiled = set()
    for d in build_dirs:
        compiled |= compiled_inputs(d)
    tests = load_tests(build_dir, args.exclude)
    if pytest_test is not None:
        tests.append(pytest_test)
    print("mutate.py: baseline: %d tests" % len(tests), flush=True)
    baseline = {}
    for t in tests:
        status, elapsed, out = run_test(t, 600)
        baseline[t["name"]] = (status, elapsed)
        if status != "passed":
            print("  baseline %s: %s (left out)" % (t["name"], status), flush=True)
            if status != "skipped":  # why, so a layer left without its tests is noticed
                print("    " + "\n    ".join(out.strip().split("\n")[-15:]), flush=True)
    tests = [t for t in tests if baseline[t["name"]][0] == "passed"]
    if pytest_test is not None and baseline[pytest_test["name"]][0] != "passed":
        # the python layer's only judge: without it every mutant there would "survive"
        raise SystemExit("mutate.py: the package's pytest suite fails unmutated (above); fix it or leave "
                         "the python layer out (--layers)")
    for t in tests:
        t["seconds"] = baseline[t["name"]][1]
    print("mutate.py: %d tests pass unmutated (%.1f s)" % (len(tests), sum(t["seconds"] for t in tests)), flush=True)

    results_path = os.path.join(args.work, "results.jsonl" if not args.plant else "planted.jsonl")
    done = {}
    if args.resume and os.path.exists(results_path):
        with open(results_path) as f:
            for line in f:
                r = json.loads(line)
                done[r["id"]] = r
    elif os.path.exists(results_path):
        os.remove(results_path)
    # (layer, test) -> mutants killed, to order the tests; kept across runs
    kills_path = os.path.join(args.work, "kills.json")
    kills = {}
    if os.path.exists(kills_path):
        kills = {tuple(k.split("|", 1)): v for k, v in json.load(open(kills_path)).items()}

    def judge(m):
        if compiled and os.path.realpath(os.path.join(src_root, m["file"])) not in compiled:
            # the tool's build never compiles the file: no test here can judge the mutant, and
            # an object that changes for another reason must not make it count as a survivor
            return dict(m, outcome="not built")
        path, original = apply_mutant(src_root, m)
        try:
            start = time.time()
            code, out, _ = build_all()
            build_seconds = time.time() - start
            if code != 0:
                return dict(m, outcome="compile error", build_seconds=round(build_seconds, 1))
            now = hashes_all()
            changed = [p for p, h in now.items() if baseline_objects.get(p) != h]
            if not changed:
                return dict(m, outcome="no code change", build_seconds=round(build_seconds, 1))
            # the extension's mutants are judged by the package's suite alone (no CTest test
            # loads the extension); the pytest run judges no C library mutant either way
            mine = [t for t in tests if (t["name"] == "python.pytest") == (m["layer"] in PYTHON_LAYERS)]
            ordered = sorted(mine, key=lambda t: (-kills.get((m["layer"], t["name"]), 0), t["seconds"]))
            deadline = time.time() + args.timeout
            ran = 0
            stalls = []
            for t in ordered:
                left = deadline - time.time()
                if left <= 0:
                    # out of time with no test failed: neither a kill nor a survivor; --resume
                    # judges it again
                    return dict(m, outcome="unfinished", tests_run=ran, stalls=stalls,
                                build_seconds=round(build_seconds, 1))
                status, elapsed, out = run_test(t, min(left, max(6.0, 4 * t["seconds"] + 4)))
                ran += 1
                if status == "timeout":
                    # A timeout may be the mutant (a loop that never ends, a lost wake-up) or the
                    # machine (load, a process paused with SIGSTOP). Run the test again with a
                    # generous limit of its own (not the mutant's budget): a kill by timeout is
                    # recorded only when it times out twice, and as such (killed_by_timeout).
                    status, elapsed, out = run_test(t, max(60.0, 10 * t["seconds"] + 30))
                    stalls.append(t["name"])
                    if status == "timeout":
                        kills[(m["layer"], t["name"])] = kills.get((m["layer"], t["name"]), 0) + 1
                        return dict(m, outcome="killed", killed_by_timeout=True, by=t["name"] + " (timeout, twice)",
                                    tests_run=ran, stalls=stalls, build_seconds=round(build_seconds, 1))
                if status == "failed":
                    kills[(m["layer"], t["name"])] = kills.get((m["layer"], t["name"]), 0) + 1
                    return dict(m, outcome="killed", by=t["name"], tests_run=ran, stalls=stalls,
                                output_tail=out[-600:], build_seconds=round(build_seconds, 1))
            return dict(m, outcome="survived", tests_run=ran, stalls=stalls, build_seconds=round(build_seconds, 1))
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)

    equivalent_rules = read_equivalent()

    def still_valid(r):
        """A result --resume keeps: not an unfinished one, not a kill by timeout when
        --rejudge-timeouts is given, not a survivor when --rejudge-survivors is given."""
        if r["outcome"] == "unfinished" or (r["outcome"] == "survived" and r.get("unfinished")):
            return False
        if args.rejudge_timeouts and (r.get("killed_by_timeout") or "(timeout" in r.get("by", "")):
            return False
        if args.rejudge_survivors and r["outcome"] == "survived":
            # a survivor judged equivalent stays one: added tests cannot change that verdict
            return equivalent_reason(r, equivalent_rules) is not None
        return True

    def record(r):
        with open(results_path, "a") as f:
            f.write(json.dumps(r) + "\n")
        with open(kills_path, "w") as f:
            json.dump({"%s|%s" % k: v for k, v in kills.items()}, f)
        shown = r.get("by", "")
        print("  %-14s %-15s %s:%d  %s  [%s -> %s]  %s" % (r["layer"], r["outcome"], r["file"], r["line"],
                                                       r["text"][:70], r["old"][:30], r["new"], shown), flush=True)

    if args.plant:
        failures = 0
        for spec in read_planted(args.plant):
            m = planted_mutant(spec, src_root)
            if m is None:
                print("  NOT FOUND      %s" % spec["raw"], flush=True)
                failures += 1
                continue
            r = done.get(m["id"]) or judge(m)
            r["name"] = spec["name"]
            record(r)
            if r["outcome"] != "killed":
                failures += 1
        write_planted_report(args.work, results_path)
        return 1 if failures else 0

    # round robin over the layers, so a run cut short still covers every layer evenly
    pools, judged = {}, {}
    for layer in layers:
        pools[layer] = seeded_pool(args, per_layer, layer)
        judged[layer] = 0
    while any(judged[l] < args.per_layer and pools[l] for l in layers):
        for layer in layers:
            while judged[layer] < args.per_layer and pools[layer]:
                m = pools[layer].pop(0)
                if m.get("log_only"):
                    continue  # info/debug log formatting: not judged (see log_only_lines)
                r = done.get(m["id"])
                if r is not None and not still_valid(r):
                    r = None
                if r is None:
                    r = judge(m)
                    record(r)
                if r["outcome"] in ("killed", "survived"):
                    judged[layer] += 1
                    break
    for layer in layers:
        print("mutate.py: %s: %d judged" % (layer, judged[layer]), flush=True)
    for which in ("tsan", "asan"):  # TSan first: a deleted lock needs no ASan run
        if getattr(args, which):
            sanitizer_rejudge(args, src_root, results_path, layers, record, which)
    # rebuild the unmutated tree, so the copy is clean for the next run
    build_all()
    write_report(args, results_path, per_layer, layers)
    return 0


SANITIZER_BUILDS = {
    # name: (MISHGRAD_SANITIZE, tests (label or None: all), extra exclude, environment) -- what
    # .ci/sanitizers.sh runs in CI: ASan+UBSan over every test but the accuracy sweeps, TSan
    # over the tests labelled `threads`
    "asan": ("address;undefined", None, "accuracy",
             {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1",
              "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}),
    "tsan": ("thread", "threads", None,
             {"TSAN_OPTIONS": "halt_on_error=1:second_deadlock_stack=1:allocator_may_return_null=1"}),
}


def sanitizer_rejudge(args, src_root, results_path, layers, record, which):
    """Judges every survivor again against a sanitizer build of the copy running the tests CI's
    .ci/sanitizers.sh runs with it: ThreadSanitizer over the `threads` tests (a deleted lock,
    or a store moved out of its critical section, changes no single-threaded result: only TSan
    sees it, as a race or an unlock of a mutex not held), AddressSanitizer + UBSan +
    LeakSanitizer over the rest (an overrun of a few bytes, a leak, a use after free that a
    release build survives). The verdict is kept in the record (r[which]: "killed by NAME" /
    "no report"); a report makes the mutant killed, by "ASAN: test" / "TSAN: test"."""
    sanitize, label, extra_exclude, extra_env = SANITIZER_BUILDS[which]
    last = {}
    for l in open(results_path):
        r = json.loads(l)
        last[r["id"]] = r
    # survivors judged equivalent (tools/mutate_equivalent.txt) are left as they are
    rules = read_equivalent()
    sample = sample_ids(args, all_sites(), layers, last)
    todo = [r for r in last.values() if r["id"] in sample and r["outcome"] == "survived" and which not in r
            and equivalent_reason(r, rules) is None]
    if not todo:
        return
    san_dir = os.path.join(args.work, "build-" + which)
    if not os.path.exists(os.path.join(san_dir, "build.ninja")):
        # clang when present, as .ci/sanitizers.sh picks it: gcc 12's libtsan ignores the tests'
        # __tsan_default_options (allocator_may_return_null), so a test that asks for an
        # impossible allocation aborts there and drops out of the judges
        compilers = (["-DCMAKE_C_COMPILER=clang", "-DCMAKE_CXX_COMPILER=clang++"]
                     if shutil.which("clang") and shutil.which("clang++") else [])
        code, out, _ = run(["cmake", "-S", src_root, "-B", san_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                            "-DMISHGRAD_SANITIZE=" + sanitize, "-DMISHGRAD_BUILD_BENCH=OFF", "-DMISHGRAD_BUILD_TOOLS=OFF",
                            "-DMISHGRAD_BUILD_TESTS=ON", "-DCMAKE_LINK_DEPENDS_NO_SHARED=ON"] + compilers)
        if code != 0:
            print(out[-3000:])
            print("mutate.py: the %s build cannot be configured; survivors not re-judged" % which, file=sys.stderr)
            return
    code, out, _ = build(san_dir, args.jobs, timeout=3600)
    if code != 0:
        print(out[-3000:])
        print("mutate.py: the unmutated %s build fails; survivors not re-judged" % which, file=sys.stderr)
        return
    exclude = args.exclude + ("|" + extra_exclude if extra_exclude else "")
    # TSan maps memory at fixed addresses: without address randomisation where it needs that
    prefix = []
    tests = []
    for t in load_tests(san_dir, exclude, label=label):
        t["env"] = dict(t["env"], **{k: os.environ.get(k, v) for k, v in extra_env.items()})
        status, elapsed, out = run_test(t, 900)
        if status != "passed" and "unexpected memory mapping" in out and not prefix:
            prefix = ["setarch", os.uname().machine, "-R"]
        if prefix and t["command"][:len(prefix)] != prefix:
            t["command"] = prefix + t["command"]
            if status != "passed":
                status, elapsed, out = run_test(t, 900)
        if status == "passed":
            t["seconds"] = elapsed
            tests.append(t)
        else:
            print("  %s baseline %s: %s (left out)" % (which, t["name"], status), flush=True)
    print("mutate.py: %s: %d tests pass unmutated; re-judging %d survivors" % (which, len(tests), len(todo)),
          flush=True)
    for r in todo:
        path, original = apply_mutant(src_root, r)
        try:
            code, out, _ = build(san_dir, args.jobs, timeout=1800)
            verdict = "no report"
            if code != 0:
                verdict = "does not build"
            else:
                ordered = sorted(tests, key=lambda t: t["seconds"])
                for t in ordered:
                    status, elapsed, out = run_test(t, max(60.0, 6 * t["seconds"] + 30))
                    if status == "timeout":  # again, with a generous limit: a pause is no kill
                        status, elapsed, out = run_test(t, max(180.0, 12 * t["seconds"] + 60))
                    if status in ("failed", "timeout"):
                        seen = [w for w in ("ThreadSanitizer", "AddressSanitizer", "LeakSanitizer", "runtime error:")
                                if w in out]
                        verdict = "killed by %s%s%s" % (t["name"], " (timeout)" if status == "timeout" else "",
                                                      (" (" + ", ".join(seen) + ")") if seen else "")
                        break
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        r = dict(r, **{which: verdict})
        if verdict.startswith("killed"):
            r["outcome"], r["by"] = "killed", which.upper() + ": " + verdict[len("killed by "):]
        record(r)
    build(san_dir, args.jobs, timeout=1800)


def read_planted(path):
    specs = []
    name = ""
    with open(path) as f:
        for raw in f:
            s = raw.rstrip("\n")
            if s.startswith("## "):
                name = s[3:].strip()
                continue
            s = s.strip() if not s.startswith("#") else ""
            if not s:
                continue
            m = re.match(r"^(\S+?):(\d+|\?):\s?(.*?) => (.*)$", s)
            if not m:
                raise SystemExit("mutate.py: bad planted line: " + s)
            specs.append({"name": name, "file": m.group(1), "line": m.group(2), "old": m.group(3),
                          "new": m.group(4), "raw": s})
    return specs


def planted_mutant(spec, src_root):
    """The spec as a mutant; line '?' finds the first line holding `old`."""
    path = os.path.join(src_root, spec["file"])
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    candidates = range(len(lines)) if spec["line"] == "?" else [int(spec["line"]) - 1]
    for k in candidates:
        if 0 <= k < len(lines) and spec["old"] in lines[k]:
            col = lines[k].index(spec["old"])
            key = (spec["file"], k, col, spec["old"], spec["new"])
            # the layer whose globs hold the file, so a planted line of the Python extension is
            # judged by the package's pytest suite as a sampled one is, not by CTest
            layer = next((name for name, _, globs in LAYERS
                          if any(fnmatch.fnmatch(spec["file"], g) for g in globs)), "planted")
            return {"layer": layer, "file": spec["file"], "line": k + 1, "col": col, "old": spec["old"],
                    "new": spec["new"], "kind": "planted", "text": lines[k].strip(),
                    "id": hashlib.sha1(repr(key).encode()).hexdigest()[:12]}
    return None


def write_planted_report(work, results_path):
    rows = [json.loads(l) for l in open(results_path)]
    with open(os.path.join(work, "planted.md"), "w") as f:
        f.write("| planted bug | where | outcome | first failing test |\n|---|---|---|---|\n")
        for r in rows:
            f.write("| %s | `%s:%d` `%s` -> `%s` | %s | %s |\n" % (r.get("name", ""), r["file"], r["line"],
                                                               r["old"], r["new"], r["outcome"], r.get("by", "")))
    print(open(os.path.join(work, "planted.md")).read())


EQUIVALENT_FILE = os.path.join(ROOT, "tools", "mutate_equivalent.txt")


def read_equivalent(path=EQUIVALENT_FILE):
    """Survivors judged equivalent by a person, one a line:
        file glob | regex over the stripped line | old => new | why no behaviour changes
    (`#` starts a comment). A regex written `mutated:REGEX` is matched against the line as
    the mutant changes it, which names one site of a line with several alike (the second `<`
    of `i < n && used < capacity`). The report shows the reason and leaves these out of the
    rate of behaviour-changing mutants; the raw kill rate counts every survivor."""
    rules = []
    if not os.path.exists(path):
        return rules
    for raw in open(path, encoding="utf-8"):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        parts = [x.strip() for x in s.split(" | ", 3)]
        if len(parts) != 4 or " => " not in parts[2]:
            raise SystemExit("mutate.py: bad line in %s: %s" % (path, s))
        old, new = parts[2].split(" => ", 1)
        if any(r["glob"] == parts[0] and r["source"] == parts[1] and (r["old"], r["new"]) == (old.strip(), new.strip())
               for r in rules):
            raise SystemExit("mutate.py: %s lists this mutant twice (keep one reason): %s" % (path, s))
        on_mutated = parts[1].startswith("mutated:")
        rules.append({"glob": parts[0], "regex": re.compile(parts[1][len("mutated:"):] if on_mutated else parts[1]),
                      "source": parts[1], "on_mutated": on_mutated, "old": old.strip(), "new": new.strip(), "why": parts[3]})
    return rules


def equivalent_reason(r, rules):
    for rule in rules:
        if not fnmatch.fnmatch(r["file"], rule["glob"]):
            continue
        text = mutated_text(r) if rule["on_mutated"] else r["text"]
        if (text is not None and rule["regex"].search(text)
                and (rule["old"] == "*" or rule["old"] == r["old"].strip())
                and (rule["new"] == "*" or rule["new"] == r["new"].strip())):
            return rule["why"]
    return None


def seeded_pool(args, per_layer, layer):
    """The layer's mutants in the seeded order the run draws them. By site (the default):
    every mutation site equally likely, so lines dense with operators and constants are drawn
    more often. --by-line: every source line that has a site equally likely, and one of its
    sites drawn at random -- as a person planting bugs on lines picked at random does, which
    reaches the sparse lines (a call, a flag, a return) a sample by site rarely draws."""
    rng = random.Random("%d:%s%s" % (args.seed, layer, ":line" if getattr(args, "by_line", False) else ""))
    pool = list(per_layer[layer])
    if not getattr(args, "by_line", False):
        rng.shuffle(pool)
        return pool
    lines = {}
    for m in pool:
        lines.setdefault((m["file"], m["line"]), []).append(m)
    keys = sorted(lines)
    rng.shuffle(keys)
    out = []
    for k in keys:
        sites = lines[k]
        first = rng.randrange(len(sites))
        out.append(sites[first])
    # then the lines' other sites, should a layer run out of lines
    for k in keys:
        out.extend(m for m in lines[k] if m not in out)
    return out


def sample_ids(args, per_layer, layers, last):
    """The sample: each layer's seeded order walked as the run walks it, up to --per-layer
    verdicts (a result left from an earlier tree or sample is not counted)."""
    sample = set()
    for layer in layers:
        pool = seeded_pool(args, per_layer, layer)
        n = 0
        for m in pool:
            if n >= args.per_layer:
                break
            if m.get("log_only") or m["id"] not in last:
                continue
            sample.add(m["id"])
            if last[m["id"]]["outcome"] in ("killed", "survived"):
                n += 1
    return sample


def write_report(args, results_path, per_layer, layers):
    last = {}
    for l in open(results_path):  # a mutant judged again (--resume --rejudge-*): its last verdict
        r = json.loads(l)
        last.pop(r["id"], None)
        last[r["id"]] = r
    sample = sample_ids(args, per_layer, layers, last)
    rows = [r for r in last.values() if r["id"] in sample]
    rules = read_equivalent()
    for r in rows:  # older records: a run out of time with no failing test is no verdict
        if r["outcome"] == "survived" and r.get("unfinished"):
            r["outcome"] = "unfinished"
    lines = ["# Mutation run", "",
             "`python3 tools/mutate.py --per-layer %d --seed %d%s%s` (tests: every CTest test but `%s`; "
             "per-mutant timeout %d s)" % (args.per_layer, args.seed, " --by-line" if args.by_line else "",
                                          (" --layers " + args.layers) if args.layers else "", args.exclude,
                                          args.timeout), "",
             "| layer | sites | judged | killed | of them by a timeout (twice) | survived | kill rate | survivors judged equivalent | kill rate of behaviour-changing | unfinished | discarded: no code change or not built / compile error |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for layer in layers:
        mine = [r for r in rows if r["layer"] == layer]
        k = sum(r["outcome"] == "killed" for r in mine)
        s = sum(r["outcome"] == "survived" for r in mine)
        nc = sum(r["outcome"] in ("no code change", "not built") for r in mine)
        ce = sum(r["outcome"] == "compile error" for r in mine)
        kt = sum(r["outcome"] == "killed" and bool(r.get("killed_by_timeout") or "(timeout" in r.get("by", ""))
                 for r in mine)
        un = sum(r["outcome"] == "unfinished" for r in mine)
        eq = sum(r["outcome"] == "survived" and equivalent_reason(r, rules) is not None for r in mine)
        rate = "%.1f%%" % (100.0 * k / (k + s)) if k + s else "-"
        rate_bc = "%d/%d = %.1f%%" % (k, k + s - eq, 100.0 * k / (k + s - eq)) if k + s - eq else "-"
        lines.append("| %s | %d | %d | %d | %d | %d | %s | %d | %s | %d | %d / %d |" % (
            layer, len(per_layer[layer]), k + s, k, kt, s, rate, eq, rate_bc, un, nc, ce))
    lines += ["", "## Survivors", ""]
    for r in rows:
        if r["outcome"] == "survived" and r["layer"] in layers:
            why = equivalent_reason(r, rules)
            lines.append("- %s `%s:%d` (%s%s): `%s` — `%s` -> `%s`%s" % (
                r["layer"], r["file"], r["line"], r["kind"], "".join(", %s: %s" % (w.upper(), r[w]) for w in ("asan", "tsan") if r.get(w)),
                r["text"], r["old"], r["new"], (" — equivalent: " + why) if why else " — **open**"))
    lines += ["", "## Killed only by a timeout (twice)", ""]
    for r in rows:
        if r["outcome"] == "killed" and r["layer"] in layers and (r.get("killed_by_timeout") or "(timeout" in r.get("by", "")):
            lines.append("- %s `%s:%d`: `%s` — `%s` -> `%s` (%s)" % (
                r["layer"], r["file"], r["line"], r["text"], r["old"], r["new"], r["by"]))
    with open(os.path.join(args.work, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
