"""Stage 2 of the device codegen: mapping entries -> C++ text.

Translates the mapping's small expression language into C++ over the
dispatcher signature's argument names, and picks, from the DIOPI
parameter's C type (its `kind` in the header model), the conversion that
turns an ATen value into a DIOPI argument (`call.in(self)`,
`call.size(stride)`, ...).
"""
from __future__ import annotations

import ast

from diopi_torch.ops.mapping import RESULT, MappingError, parse_expression, unescape

_DTYPES = {"bool": "at::kBool", "uint8": "at::kByte", "int8": "at::kChar", "int16": "at::kShort", "int32": "at::kInt",
           "int64": "at::kLong", "float16": "at::kHalf", "bfloat16": "at::kBFloat16", "float32": "at::kFloat",
           "float64": "at::kDouble", "complex64": "at::kComplexFloat", "complex128": "at::kComplexDouble"}

# DIOPI parameter kind -> how an ATen value becomes the C argument.
_CONVERT = {
    "tensor_in": "call.in({})",
    "tensor_out": "call.out({})",
    "tensor_array_in": "call.ins({})",
    "tensor_array_out": "call.outs({})",
    "scalar": "call.scalar({})",
    "size": "call.size({})",
    "size_ptr": "call.sizePtr({})",
    "int": "diopi_torch::toInt({})",
    "float": "diopi_torch::toDouble({})",
    "bool": "static_cast<bool>({})",
    "enum_round": "static_cast<diopiRoundMode_t>(diopi_torch::toInt({}))",
    "enum_reduction": "static_cast<diopiReduction_t>(diopi_torch::toInt({}))",
    "enum_memory_format": "static_cast<diopiMemoryFormat_t>(diopi_torch::toInt({}))",
    "enum_dtype": "diopi_torch::toDiopiDtype({})",
    "generator": "call.generator({})",
    "string": "call.string({})",
    "int_ptr": "call.intPtr({})",
    "double_ptr": "call.doublePtr({})",
    "bool_ptr": "call.boolPtr({})",
}


class Translator:
    """Renders expressions of one entry; `arg_types` maps ATen argument
    names to their schema type text, so list and optional values are
    indexed and tested the right way."""

    def __init__(self, where, arg_types, result_is_tuple):
        self.where = where
        self.arg_types = arg_types
        self.result_is_tuple = result_is_tuple

    def convert(self, kind, text):
        """C++ for a DIOPI argument of `kind` computed by expression `text`."""
        if kind not in _CONVERT:
            raise MappingError(f"{self.where}: DIOPI parameters of kind {kind!r} cannot be mapped yet")
        return self._convert(kind, parse_expression(text, self.where))

    def _convert(self, kind, node):
        # Conditionals convert both branches, so each side has the C type.
        if isinstance(node, ast.IfExp):
            return f"({self.expr(node.test)} ? {self._convert(kind, node.body)} : {self._convert(kind, node.orelse)})"
        if isinstance(node, ast.List) and kind == "tensor_array_in":  # tensors gathered into a list: [index]
            items = ", ".join(self.expr(x) for x in node.elts)
            return f"call.ins(at::TensorList(std::vector<at::Tensor>{{{items}}}))"
        return _CONVERT[kind].format(self.expr(node))

    def condition(self, text):
        return self.expr(parse_expression(text, self.where))

    def expr(self, node):
        e = self.expr
        if isinstance(node, ast.Constant):
            v = node.value
            if v is None:
                return "diopi_torch::None{}"
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, int):
                return f"int64_t({v})"
            if isinstance(v, float):
                return "std::numeric_limits<double>::infinity()" if v == float("inf") else repr(v)
            if isinstance(v, str):
                return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(node, ast.Name):
            if unescape(node.id) in self.arg_types:  # `from_` in the parsed text is the argument `from`
                return unescape(node.id)
            if node.id in _DTYPES and node.id not in self.arg_types:
                return _DTYPES[node.id]
            if node.id == RESULT or node.id in self.arg_types:
                return node.id
            if node.id in ("True", "False"):
                return node.id.lower()
            raise MappingError(f"{self.where}: unknown name {node.id!r}")
        if isinstance(node, ast.Subscript):
            idx = node.slice.value if isinstance(node.slice, ast.Constant) else -node.slice.operand.value
            if isinstance(node.value, ast.Name) and node.value.id == RESULT and self.result_is_tuple:
                return f"std::get<{idx}>(result)"
            return f"{e(node.value)}[{idx}]"
        if isinstance(node, ast.UnaryOp):
            return f"(!{e(node.operand)})" if isinstance(node.op, ast.Not) else f"(-{e(node.operand)})"
        if isinstance(node, ast.BoolOp):
            op = " && " if isinstance(node.op, ast.And) else " || "
            return "(" + op.join(e(v) for v in node.values) + ")"
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add) and (isinstance(node.left, ast.List) or isinstance(node.right, ast.List)):
                return f"diopi_torch::concat({e(node.left)}, {e(node.right)})"  # [1] + stride
            op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[type(node.op)]
            return f"({e(node.left)} {op} {e(node.right)})"
        if isinstance(node, (ast.List, ast.Tuple)):
            return "std::vector<int64_t>{" + ", ".join(e(x) for x in node.elts) + "}"
        if isinstance(node, ast.Attribute):
            return f"{e(node.value)}.scalar_type()" if node.attr == "dtype" else f"{e(node.value)}.device()"
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                if node.func.id == "is_number":
                    return f"diopi_torch::isNumber({e(node.args[0])})"
                return f"static_cast<int64_t>({e(node.args[0])}.size())"  # len()
            return f"{e(node.func.value)}.{node.func.attr}(" + ", ".join(e(a) for a in node.args) + ")"
        if isinstance(node, ast.Compare):
            parts = []
            left = node.left
            for op, right in zip(node.ops, node.comparators):
                parts.append(self._compare(left, op, right))
                left = right
            return "(" + " && ".join(parts) + ")"
        raise MappingError(f"{self.where}: cannot translate {ast.dump(node)} to C++")

    def _compare(self, left, op, right):
        e = self.expr
        if isinstance(op, (ast.Is, ast.IsNot)):
            if not (isinstance(right, ast.Constant) and right.value is None):
                raise MappingError(f"{self.where}: `is` only compares with None")
            test = f"diopi_torch::present({e(left)})"
            return f"!{test}" if isinstance(op, ast.Is) else test
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(right, (ast.Tuple, ast.List)):
                raise MappingError(f"{self.where}: `in` needs a literal tuple or list")
            lhs = e(left)
            any_of = "(" + " || ".join(f"{lhs} == {e(x)}" for x in right.elts) + ")"
            return any_of if isinstance(op, ast.In) else f"!{any_of}"
        if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(left, ast.Name) and \
                self.arg_types.get(left.id) == "Scalar":  # at::Scalar compares with a number through equal()
            test = f"{e(left)}.equal({e(right)})"
            return test if isinstance(op, ast.Eq) else f"!{test}"
        sym = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
        return f"{e(left)} {sym} {e(right)}"
