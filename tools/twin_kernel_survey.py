#!/usr/bin/env python3
"""twin_kernel_survey.py: how many op_kernels of an ops-nn checkout compile against the twin's
kernel_operator.h face (docs/ascendc_twin.md, "Survey"), per category, and for each that
does not, the first API the face lacks.

    python3 tools/twin_kernel_survey.py OPS_NN [--cxx g++] [-j 2] [--under experimental]
                                        [--only NAME,...] [--verbose]

Each op_kernel directory <dir>/op_kernel with an <op>.cpp is compiled as the twin builds a
kernel (ascendc/cmake/AscendcTwin.cmake): a template kernel (its <op>_tiling_key.h declares
ASCENDC_TPL_ARGS) through asc_twin_tpl_gen, which instantiates every combination
ASCENDC_TPL_SEL lists; a plain one registered as itself. The unit is compiled with
-fsyntax-only (templates are instantiated, nothing is written), DTYPE_<NAME> macros as
float. Nothing is copied from the checkout; it is read where it lies.

Exit status 0 whatever the count (a survey, not a test); 2 when OPS_NN holds no op_kernel.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FACE = os.path.join(ROOT, "ascendc", "include")
TPLGEN = os.path.join(ROOT, "ascendc", "cmake", "asc_twin_tpl_gen.cpp")
ENV = dict(os.environ, LC_ALL="C")  # the compilers' messages in ASCII quotes
DEFINES = ["ASCENDC_TPL_KERNEL", "ASCENDC_CPU_DEBUG", "__CCE_KT_TEST__"]


def find_kernels(ops_nn, under):
    """(category, op, op_kernel dir, main source) for each op_kernel directory with <op>.cpp."""
    found = []
    base = os.path.join(ops_nn, under)
    for dirpath, dirnames, _ in os.walk(base):
        dirnames.sort()
        if os.path.basename(dirpath) != "op_kernel":
            continue
        op = os.path.basename(os.path.dirname(dirpath))
        src = os.path.join(dirpath, op + ".cpp")
        if not os.path.isfile(src):
            continue
        rel = os.path.relpath(dirpath, base).split(os.sep)
        category = rel[0] if len(rel) > 2 else "."
        found.append((category, op, dirpath, src))
    return found


def signature(text, kernel):
    """(GM_ADDR parameter count, template kinds "T"/"V" per parameter or "-") as AscendcTwin.cmake reads them."""
    nargs = 0
    m = re.search(r"void\s+" + re.escape(kernel) + r"\s*\(([^)]*)\)", text)
    if m:
        nargs = len(re.findall(r"GM_ADDR", m.group(1)))
    kinds = "-"
    m = re.search(r"template\s*<([^>]*)>\s*(__global__\s+)?(__aicore__\s+)?void\s+" + re.escape(kernel) + r"\s*\(",
                  text)
    if m:
        kinds = "".join("T" if re.match(r"\s*(typename|class)\s", p) else "V" for p in m.group(1).split(","))
    return nargs, kinds


def dtype_macros(texts):
    """DTYPE_<NAME> as float (CANN's build derives them from the OpDef), but not names the
    kernel declares itself (a template parameter DTYPE_SELF_ID, a #define)."""
    names, own = set(), set()
    for t in texts:
        names.update(re.findall(r"\b(DTYPE_[A-Z0-9_]+)\b", t))
        own.update(re.findall(r"(?:#define|\bint|\bint32_t|\buint32_t|\btypename|\bclass|\bauto)\s+(DTYPE_[A-Z0-9_]+)\b", t))
    return ["%s=float" % n for n in sorted(names - own)]


def first_error(out):
    """The first error line of the compiler's output, and the API (or header) it names."""
    for line in out.splitlines():
        if "error" not in line:
            continue
        m = re.search(r"fatal error: ([^:]+): No such file", line) or re.search(r"fatal error: '([^']+)' file not found",
                                                                              line)
        if m:
            return line.strip(), "#include " + m.group(1)
        for pat in (r"'(\w+)' is not a member of '[\w:]+'",
                    r"no member named '(\w+)' in (?:namespace )?'[\w:]+'",
                    r"'(\w+)' was not declared in this scope",
                    r"use of undeclared identifier '(\w+)'",
                    r"unknown type name '(\w+)'",
                    r"'(\w+)' does not name a type",
                    r"'(\w+)' has not been declared",
                    r"no matching function for call to '(?:[\w:]+::)?(\w+)",
                    r"no matching (?:member )?function for call to '(\w+)'",
                    r"no member named '(\w+)'",
                    r"has no member named '(\w+)'",
                    r"'(\w+)' is not a class, namespace",
                    r"'(\w+)' was not declared",
                    r"there are no arguments to '(\w+)'",
                    r"no type named '(\w+)'"):
            m = re.search(pat, line)
            if m:
                return line.strip(), m.group(1)
        if re.search(r"\berror\b", line):
            return line.strip(), "?"
    return "", "?"


def compile_one(args, kernel):
    category, op, kdir, src = kernel
    texts = []
    for name in sorted(os.listdir(kdir)):
        if name.endswith((".cpp", ".h")):
            with open(os.path.join(kdir, name), errors="replace") as f:
                texts.append(f.read())
    with open(src, errors="replace") as f:
        main_text = f.read()
    nargs, kinds = signature(main_text, op)
    incs = [FACE, kdir, os.path.dirname(os.path.dirname(kdir)), os.path.dirname(kdir), args.ops_nn]
    host = ["-std=c++17", "-w"] + ["-I" + i for i in incs]
    flags = host + ["-D" + d for d in DEFINES + dtype_macros(texts)]
    # the tiling-key header beside the kernel or in a folder under it (bn_infer_grad: common/)
    key_header = os.path.join(kdir, op + "_tiling_key.h")
    for dirpath, _, files in sorted(os.walk(kdir)):
        if not os.path.isfile(key_header) and op + "_tiling_key.h" in files:
            key_header = os.path.join(dirpath, op + "_tiling_key.h")
    with tempfile.TemporaryDirectory(prefix="twin_survey_") as tmp:
        unit = os.path.join(tmp, "register.cpp")
        if os.path.isfile(key_header) and "ASCENDC_TPL_ARGS_DECL" in open(key_header, errors="replace").read():
            gen = os.path.join(tmp, "tplgen")
            r = subprocess.run([args.cxx] + host + ['-DASC_TWIN_TPL_HEADER="%s"' % key_header, TPLGEN, "-o", gen],
                               capture_output=True, text=True, env=ENV)
            if r.returncode != 0:
                line, api = first_error(r.stderr)
                return kernel, False, api, "tiling key header: " + line
            r = subprocess.run([gen, op, str(nargs), kinds, unit, os.path.join(tmp, "dispatch.cpp"), src],
                               capture_output=True, text=True, env=ENV)
            if r.returncode != 0:
                return kernel, False, "ASCENDC_TPL_SEL", r.stderr.strip().splitlines()[-1:] or ["?"]
        else:
            keys = sorted(set(int(k) for k in re.findall(r"TILING_KEY_IS\s*\(\s*(\d+)", main_text))) or [0]
            with open(unit, "w") as f:
                f.write('#include "%s"\n#include "asc_face/entry.h"\n' % src)
                for k in keys:
                    f.write('ASC_TWIN_REGISTER_KERNEL("%s", %dULL, %s)\n' % (op, k, op))
        r = subprocess.run([args.cxx] + flags + ["-fsyntax-only", "-fmax-errors=5" if "clang" not in args.cxx
                                                 else "-ferror-limit=5", unit],
                           capture_output=True, text=True, env=ENV)
        if r.returncode == 0:
            return kernel, True, "", ""
        line, api = first_error(r.stderr)
        return kernel, False, api, line


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("ops_nn")
    p.add_argument("--cxx", default=os.environ.get("CXX", "g++"))
    p.add_argument("-j", type=int, default=2)
    p.add_argument("--under", default="experimental", help="the checkout's folder to survey (default experimental)")
    p.add_argument("--only", default="", help="comma-separated operator names")
    p.add_argument("--verbose", action="store_true", help="print each failing kernel's first error line")
    args = p.parse_args()
    args.ops_nn = os.path.abspath(args.ops_nn)
    kernels = find_kernels(args.ops_nn, args.under)
    if args.only:
        wanted = set(args.only.split(","))
        kernels = [k for k in kernels if k[1] in wanted]
    if not kernels:
        print("no op_kernel/<op>.cpp under %s" % os.path.join(args.ops_nn, args.under), file=sys.stderr)
        return 2
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        results = list(pool.map(lambda k: compile_one(args, k), kernels))
    per_cat = {}
    missing = {}
    for (category, op, _, _), ok, api, line in results:
        c = per_cat.setdefault(category, [0, 0])
        c[1] += 1
        if ok:
            c[0] += 1
        else:
            missing.setdefault(api, []).append(op)
            print("FAIL %s/%s: %s" % (category, op, api))
            if args.verbose:
                print("     %s" % line)
    print()
    print("| category | compile | kernels |")
    print("|---|---:|---:|")
    for category in sorted(per_cat):
        print("| %s | %d | %d |" % (category, per_cat[category][0], per_cat[category][1]))
    total_ok = sum(c[0] for c in per_cat.values())
    print("| all (%s) | %d | %d |" % (os.path.basename(args.cxx), total_ok, len(results)))
    print()
    print("first missing API, by how many kernels stop at it:")
    for api, ops in sorted(missing.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print("  %3d %s: %s" % (len(ops), api, " ".join(sorted(ops))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
