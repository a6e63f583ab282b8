#!/usr/bin/env python3
"""Layering check: library folders depend downward only, and L0 never calls L2.

Invariant: each library folder has a rank (LAYERS below); a quoted #include may reach only a
folder of lower rank or its own. Folders of equal rank are peers and may not include each
other (that is how a circle starts). Inside op_host/elementwise, *_l0.c may not call a
function defined in *_l2.c. Inside runtime/, each source file has a tier (RUNTIME_TIERS) and
may call only functions defined in its own file or in a lower tier: no circle, no arrow up.
Exit status 1 names every violation. `--look runtime` prints the runtime's file-to-file calls.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# folder -> rank; lower is further down. include/ is the public face every layer may use.
LAYERS = {
    "include": 0,
    "geometry": 0.5,
    "runtime": 1,
    "nnopbase": 2,
    "op_kernel": 2,
    "ascendc": 2,          # the AscendC twin: over the runtime only
    "op_host/elementwise": 3,
    "op_host/op_api": 4,
}

# runtime/ inside: tiers of source files, lowest first. A file may call functions of its own
# file and of lower tiers only (files of one tier are peers). A new runtime file must be
# placed here.
RUNTIME_TIERS = [
    # the checked mutexes: every file with a lock calls them
    ["rt_lock.c"],
    # errors and logs: everything reports through them
    ["acl_error.c"],
    # faults and the library's allocations (the handle registry asks it for MISHGRAD_FAULT_HANDLE)
    ["fault_injection.c"],
    # leaves: handles, the CPU, the pool, the configuration file, the init state
    ["handle_registry.c", "cpu_features.c", "thread_pool.c", "acl_config.c",
     "rt_state.c"],
    ["acl_base.c"],
    # tensor descriptions; contexts (they reach their streams through a hook the stream
    # layer installs)
    ["acl_tensor_desc.c", "acl_context.c", "acl_op.c"],
    # device memory: blocks, pins, allocation, registration
    ["acl_memory.c"],
    # streams, bottom up: the queue and its workers; waiting; the race check and queueing;
    # the stream API and submission; events and callbacks; finalize
    ["stream_queue.c"],
    ["stream_wait.c"],
    ["stream_race.c"],
    ["acl_stream.c"],
    ["acl_event.c", "acl_callback.c"],
    ["stream_finalize.c"],
    # above memory and streams: copies and sets, and the memory calls that wait for streams
    ["acl_copy.c"],
    # above memory and streams too: a planned launch in one trip (pins, checks, queueing)
    ["stream_launch.c"],
    # the top: aclInit / aclFinalize
    ["acl_init.c"],
]

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


COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\])*\"", re.S)


def runtime_calls():
    """(caller file, callee file, function) for every call between two runtime sources."""
    folder = os.path.join(ROOT, "runtime")
    texts, defined = {}, {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".c"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                texts[name] = COMMENT_RE.sub(" ", f.read())
            for fn in DEF_RE.findall(texts[name]):
                defined.setdefault(fn, name)
    calls = set()
    for name, text in texts.items():
        for word in set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", text)):
            where = defined.get(word)
            if where is not None and where != name:
                calls.add((name, where, word))
    return sorted(calls), sorted(texts)


def check_runtime(errors):
    tier = {name: i for i, names in enumerate(RUNTIME_TIERS) for name in names}
    calls, names = runtime_calls()
    for name in names:
        if name not in tier:
            errors.append(f"runtime/{name}: not placed in RUNTIME_TIERS (tools/check_layers.py)")
    for caller, callee, fn in calls:
        if caller in tier and callee in tier and tier[callee] >= tier[caller]:
            how = "a peer" if tier[callee] == tier[caller] else "a file above it"
            errors.append(f"runtime/{caller}: calls {fn} of runtime/{callee}, {how}")


def look_runtime():
    calls, _ = runtime_calls()
    edges = {}
    for caller, callee, fn in calls:
        edges.setdefault((caller, callee), []).append(fn)
    tier = {name: i for i, names in enumerate(RUNTIME_TIERS) for name in names}
    for (caller, callee), fns in sorted(edges.items(), key=lambda e: (tier.get(e[0][0], 99), e[0])):
        up = tier.get(callee, 99) >= tier.get(caller, -1)
        print(f"{'UP ' if up else '   '}{caller} -> {callee}: {', '.join(sorted(fns))}")
    return 0


def main():
    if sys.argv[1:] == ["--look", "runtime"]:
        return look_runtime()
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

    check_runtime(errors)

    for e in errors:
        print("check_layers:", e)
    if errors:
        return 1
    print(f"check_layers: {len(files)} files, {len(LAYERS)} layers, no upward arrow")
    return 0


if __name__ == "__main__":
    sys.exit(main())
