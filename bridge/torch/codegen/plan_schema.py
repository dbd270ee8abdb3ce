"""Generates the runner's header of the plan format from its one table.

    python codegen/plan_schema.py --out BUILD_DIR [--schema diopi_torch/graph/plan_schema.py]

diopi_torch/graph/plan_schema.py defines the codes of a compiled graph's
plan (graph/plan.py writes them); this writes BUILD_DIR/plan_schema.hpp,
the enums and code tables csrc/graph/runner.cpp parses with, so both sides
follow one table. The schema is read as literals (ast), never imported: the
package need not be importable at build time. A malformed entry stops the
build with `file:line: message`. The header is rewritten only when its
content changes.
"""
from __future__ import annotations

import argparse
import ast
import keyword
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA = os.path.join(os.path.dirname(HERE), "diopi_torch", "graph", "plan_schema.py")

PAYLOADS = ("none", "int", "flag", "real", "hex", "ints", "reals", "scalar")
# Table name in the schema -> C++ enum name.
TABLES = {"BASES": "Base", "ARGS": "ArgKind", "SCALARS": "ScalarKind", "EAGER": "EagerKind"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_CODE = re.compile(r"[A-Za-z]+\Z")
_CPP_KEYWORDS = {"int", "bool", "double", "float", "char", "void", "auto", "class", "struct", "enum", "default", "delete",
                 "new", "this", "true", "false", "nullptr", "const", "static", "switch", "case", "return", "union"}


class SchemaError(Exception):
    def __init__(self, path, line, message):
        super().__init__(f"{path}:{line}: {message}")


def _literal(path, node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise SchemaError(path, node.lineno, "not a literal (the schema is read without importing it)") from None


def read(path):
    """The schema's tables: {"MAGIC": (line, value), ..., "ARGS": [(line, entry), ...]}."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    found = {}
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        name = stmt.targets[0].id
        if name in ("MAGIC", "VERSION"):
            found[name] = (stmt.lineno, _literal(path, stmt.value))
        elif name == "SECTIONS" or name in TABLES:
            if not isinstance(stmt.value, (ast.List, ast.Tuple)):
                raise SchemaError(path, stmt.lineno, f"{name} must be a list")
            found[name] = [(e.lineno, _literal(path, e)) for e in stmt.value.elts]
    for name in ("MAGIC", "VERSION", "SECTIONS", *TABLES):
        if name not in found:
            raise SchemaError(path, 1, f"the schema defines no {name}")
    return found


def check(path, schema):
    line, magic = schema["MAGIC"]
    if not (isinstance(magic, str) and magic and not any(c.isspace() for c in magic)):
        raise SchemaError(path, line, "MAGIC must be one word")
    line, version = schema["VERSION"]
    if not (isinstance(version, int) and not isinstance(version, bool) and version > 0):
        raise SchemaError(path, line, "VERSION must be a positive integer")
    seen = set()
    for line, word in schema["SECTIONS"]:
        if not (isinstance(word, str) and _CODE.match(word)):
            raise SchemaError(path, line, f"section {word!r} must be a word of letters")
        if word in seen:
            raise SchemaError(path, line, f"section {word!r} is listed twice")
        seen.add(word)
    for table in TABLES:
        codes, names = {}, {}
        for line, entry in schema[table]:
            if not (isinstance(entry, tuple) and len(entry) == 4 and all(isinstance(x, str) for x in entry)):
                raise SchemaError(path, line, f"an entry of {table} is (code, C++ name, payload, meaning), four strings")
            code, name, payload, meaning = entry
            if not _CODE.match(code):
                raise SchemaError(path, line, f"code {code!r} must be a word of letters")
            if code in codes:
                raise SchemaError(path, line, f"code {code!r} is already used in {table} (line {codes[code]})")
            if not _IDENT.match(name) or keyword.iskeyword(name) or name in _CPP_KEYWORDS:
                raise SchemaError(path, line, f"name {name!r} is not usable as a C++ enumerator and a Python attribute")
            if name in names:
                raise SchemaError(path, line, f"name {name!r} is already used in {table} (line {names[name]})")
            if payload not in PAYLOADS:
                raise SchemaError(path, line, f"payload {payload!r} is none of {', '.join(PAYLOADS)}")
            if payload == "scalar" and table == "SCALARS":
                raise SchemaError(path, line, "a scalar kind cannot hold a scalar")
            if not meaning or "\n" in meaning:
                raise SchemaError(path, line, f"code {code!r} needs its meaning, on one line")
            codes[code], names[name] = line, line
        if not schema[table]:
            raise SchemaError(path, 1, f"{table} is empty")


def _cpp_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(schema, source):
    out = [f"// Generated by codegen/plan_schema.py from {source}; do not edit.",
           "// The plan format of compiled graphs: diopi_torch/graph/plan.py writes it, csrc/graph/runner.cpp reads it.",
           "#pragma once", "", "#include <cstddef>", "#include <cstdint>", "#include <optional>", "#include <string_view>", "",
           "namespace diopi_torch::graph::plan {", "",
           f"inline constexpr std::string_view kMagic = {_cpp_string(schema['MAGIC'][1])};",
           f"inline constexpr int64_t kVersion = {schema['VERSION'][1]};", "",
           "/// The words that open the parts of a plan, in order."]
    for _, word in schema["SECTIONS"]:
        out.append(f"inline constexpr const char* k{word[0].upper() + word[1:]} = {_cpp_string(word)};")
    out += ["", "/// What follows a code in the text (plan_schema.py's docstring).",
            "enum class Payload : uint8_t { " + ", ".join(p.capitalize() for p in PAYLOADS) + " };", "",
            "template <class Kind>", "struct Code {", "    std::string_view code;", "    Kind kind;", "    Payload payload;",
            "};", ""]
    for table, enum in TABLES.items():
        entries = [e for _, e in schema[table]]
        out.append(f"enum class {enum} : uint8_t {{")
        for code, name, _, meaning in entries:
            out.append(f"    {name},  // {code}: {meaning}")
        out.append("};")
        out.append(f"inline constexpr Code<{enum}> k{enum}Codes[] = {{")
        for code, name, payload, _ in entries:
            out.append(f"    {{{_cpp_string(code)}, {enum}::{name}, Payload::{payload.capitalize()}}},")
        out.append("};")
        out.append("")
    out += ["/// The entry of `code` in one of the tables above; none for a code the schema does not define.",
            "template <class Kind, size_t N>",
            "constexpr std::optional<Code<Kind>> find(const Code<Kind> (&table)[N], std::string_view code) {",
            "    for (const auto& c : table)", "        if (c.code == code) return c;", "    return std::nullopt;", "}", "",
            "}  // namespace diopi_torch::graph::plan", ""]
    return "\n".join(out)


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return False
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="build directory (never the source tree)")
    ap.add_argument("--schema", default=DEFAULT_SCHEMA)
    args = ap.parse_args(argv)
    try:
        schema = read(args.schema)
        check(args.schema, schema)
    except SchemaError as e:
        print(e, file=sys.stderr)
        return 1
    except SyntaxError as e:
        print(f"{e.filename}:{e.lineno}: {e.msg}", file=sys.stderr)
        return 1
    write_if_changed(os.path.join(args.out, "plan_schema.hpp"), render(schema, "diopi_torch/graph/plan_schema.py"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
