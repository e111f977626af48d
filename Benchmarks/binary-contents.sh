#!/usr/bin/env bash
# What is in routectl's release binary, per module and library it links statically: code,
# read-only data (Swift metadata, unwind tables, constants) and writable data, in KB, as the
# linker laid them out after dropping unused sections (--gc-sections). Relinks the release
# build's objects once more, with a link map, into a temporary folder (SwiftPM's build is
# left as it is), then sums the map's input sections by the archive or module they came from.
#
# Usage: Benchmarks/binary-contents.sh [--resident PID] [PRODUCT]     (default routectl)
# With --resident, also how much of each is resident in process PID, which must run a binary
# of this very link (the release build's, or the package's: stripping keeps the layout).
# Needs the release build: swift build -c release --static-swift-stdlib --product routectl
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/swift-env
resident_pid=
if [ "${1:-}" = --resident ]; then resident_pid=$2; shift 2; fi
product=${1:-routectl}
manifest=.build/release.yaml
[ -f "$manifest" ] || { echo "binary-contents: build first: swift build -c release --static-swift-stdlib --product $product" >&2; exit 69; }
work=$(mktemp -d /tmp/routekit-binary-contents.XXXXXX)
trap 'rm -rf "$work"' EXIT

# The product's link command, as SwiftPM runs it, writing elsewhere and with a map.
python3 - "$manifest" "$product" "$work" <<'PYTHON' >"$work/link-args"
import json, sys
manifest, product, work = sys.argv[1:]
text = open(manifest).read()
start = text.index(f'"C.{product}-')
start = text.index("args: ", text.index(".exe", start)) + len("args: ")
args = json.loads(text[start:text.index("\n", start)])
output = args.index("-o")
args[output + 1] = f"{work}/{product}"
print("\n".join(args + ["-Xlinker", f"-Map={work}/{product}.map"]))
PYTHON
mapfile -t link <"$work/link-args"
nice -n 10 "${link[@]}"
if [ -n "$resident_pid" ]; then
    layout() { readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] *//' | awk '$1 ~ /^\.(text|rodata|data\.rel\.ro|data)$/ { print $1, $3, $5 }'; }
    [ "$(layout /proc/"$resident_pid"/exe)" = "$(layout "$work/$product")" ] \
        || { echo "binary-contents: process $resident_pid does not run a binary of this link" >&2; exit 65; }
fi

python3 - "$work/$product.map" "$work/$product" "$resident_pid" <<'PYTHON'
import os, re, struct, subprocess, sys
from collections import defaultdict
map_path, binary, pid = sys.argv[1:]

def kind(section):
    if section.startswith(".text") or section in (".init", ".fini", ".plt"): return "code"
    if section.startswith((".data", ".bss", ".tbss", ".tdata", ".got", ".init_array", ".fini_array")): return "writable"
    return "read-only"

def component(path):
    archive = re.match(r".*/lib(\w+)\.a\(", path)
    if archive: return {"swiftCore": "Swift runtime + stdlib (swiftCore)"}.get(archive.group(1), archive.group(1))
    module = re.match(r".*/(\w+)\.build/", path)
    if module: return module.group(1)
    return "C startup (crt, swiftrt)"

# The output sections loaded into memory (debug info and symbol tables are not).
headers = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout
allocated = set()
for line in headers.splitlines():
    fields = re.sub(r"^\s*\[\s*\d+\]\s*", "", line).split()
    if len(fields) >= 7 and re.fullmatch(r"[0-9a-f]{16}", fields[2] or "") and "A" in fields[6]: allocated.add(fields[0])

# Every input section the linker kept in them: (address, size, component, kind).
pieces = []
in_memory_map = False
output_section = None
pending = None
for line in open(map_path, errors="replace"):
    if line.startswith("Memory map"): in_memory_map = True; continue
    if not in_memory_map: continue
    top = re.match(r"^(\S+)\s+0x[0-9a-f]+\s+0x[0-9a-f]+", line)
    if top: output_section = top.group(1); continue
    entry = re.match(r"^ (\S+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", line)
    if entry and output_section in allocated:
        pieces.append((int(entry.group(2), 16), int(entry.group(3), 16), component(entry.group(4)), kind(output_section)))
        pending = None; continue
    named = re.match(r"^ (\S+)\s*$", line)
    if named: pending = named.group(1); continue
    continued = re.match(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(/\S.*)$", line)
    if continued and pending is not None and output_section in allocated:
        pieces.append((int(continued.group(1), 16), int(continued.group(2), 16), component(continued.group(3)), kind(output_section)))
        pending = None

sizes = defaultdict(lambda: defaultdict(int))
for _, size, name, part in pieces: sizes[name][part] += size

# With a pid: which of the binary's pages are resident in that process (/proc/PID/pagemap's
# present bit), each page's 4 KB shared among the input sections on it by their bytes there.
resident = defaultdict(float)
if pid:
    page = os.sysconf("SC_PAGE_SIZE")
    exe = os.readlink(f"/proc/{pid}/exe")
    mappings = []
    for line in open(f"/proc/{pid}/maps"):
        fields = line.split()
        if len(fields) >= 6 and fields[5] == exe:
            start, end = (int(x, 16) for x in fields[0].split("-"))
            mappings.append((start, end, int(fields[2], 16)))
    base = min(start - offset for start, _, offset in mappings)
    present = set()
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for start, end, _ in mappings:
            pagemap.seek(start // page * 8)
            data = pagemap.read((end - start) // page * 8)
            for index in range((end - start) // page):
                if struct.unpack_from("<Q", data, index * 8)[0] >> 63: present.add(start - base + index * page)
    covered = defaultdict(int)
    for address, size, name, _ in pieces:
        first, last = address // page * page, (address + size - 1) // page * page if size else -1
        for start in range(first, last + 1, page):
            if start in present:
                overlap = min(address + size, start + page) - max(address, start)
                covered[start] += overlap
                resident[name] += overlap
    resident["made by the linker (unwind index, relocations, symbols)"] = sum(page - covered.get(p, 0) for p in present)
    print(f"process {pid} ({exe}): {len(present) * page // 1024} KB of the binary resident")

rows = sorted(sizes.items(), key=lambda item: -sum(item[1].values()))
total = defaultdict(int)
header = f"{'component':44} {'code':>8} {'read-only':>10} {'writable':>9} {'total KB':>9}" + (f" {'resident KB':>12}" if pid else "")
print(header)
def row(name, code, readonly, writable, all_kb, resident_kb):
    print(f"{name:44} {code:>8} {readonly:>10} {writable:>9} {all_kb:>9}" + (f" {resident_kb:>12}" if pid else ""))
small, small_resident = 0, 0.0
for name, parts in rows:
    for key, value in parts.items(): total[key] += value
    if sum(parts.values()) < 20 * 1024:
        small += sum(parts.values()); small_resident += resident[name]; continue
    row(name, parts["code"] // 1024, parts["read-only"] // 1024, parts["writable"] // 1024, sum(parts.values()) // 1024, int(resident[name] // 1024))
row("(components under 20 KB)", "", "", "", small // 1024, int(small_resident // 1024))
sections = subprocess.run(["size", "-A", binary], capture_output=True, text=True).stdout
loaded = sum(int(parts[1]) for parts in (line.split() for line in sections.splitlines()[2:])
             if len(parts) == 3 and not parts[0].startswith(".debug") and parts[0] not in (".comment", ".symtab", ".strtab", ".shstrtab") and parts[2] != "0")
linker = "made by the linker (unwind index, relocations, symbols)"
row(linker, "", "", "", (loaded - sum(total.values())) // 1024, int(resident[linker] // 1024))
row("loaded sections (size -A, no debug info)", total["code"] // 1024, "", "", loaded // 1024, int(sum(resident.values()) // 1024))
dynamic = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
print("shared libraries:", ", ".join(line.split()[0] for line in dynamic.splitlines() if "=>" in line))
PYTHON
