"""Regenerates kv.json here: for each config of the shared reference's modern/configs/, what
transformers 5.24.0's DynamicCache keeps per layer (its own get_layer_types_and_kwargs from
cache_utils.py, run as the library ships it), each layer's cached width as the model's attention
module hands it to Cache.update (DeepSeek-V3: the MLA latent, kv_lora_rank and the shared
qk_rope_head_dim key; otherwise num_key_value_heads × head_dim, Gemma 4's per-layer values), and
the bytes (bf16) of the pattern and of every layer full at three lengths. A sliding or chunked
layer keeps min(L, W − 1) positions (DynamicSlidingWindowLayer slices [-W + 1:]).

    python -m venv venv && venv/bin/pip install transformers==5.24.0   # no torch needed
    venv/bin/python generate.py CONFIG_DIR
"""
import ast, contextlib, glob, io, json, os, sys, warnings

warnings.filterwarnings("ignore")
import transformers
from transformers import CONFIG_MAPPING
from transformers.configuration_utils import PreTrainedConfig

source = transformers.__file__.replace("__init__.py", "cache_utils.py")
tree = ast.parse(open(source).read())
fn = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_layer_types_and_kwargs"][0]
scope = {"PreTrainedConfig": PreTrainedConfig}
exec(compile(ast.Module([fn], []), source, "exec"), scope)
layer_types_and_kwargs = scope["get_layer_types_and_kwargs"]
LENGTHS = [8192, 32768, 131072]
BYTES = 2


def text_config(path):
    raw = json.load(open(path))
    with contextlib.redirect_stderr(io.StringIO()):
        return CONFIG_MAPPING[raw["model_type"]].from_dict(raw).get_text_config(decoder=True)


def widths(tc, i):
    if tc.model_type == "deepseek_v3":
        return 1, tc.kv_lora_rank, tc.qk_rope_head_dim
    lc = tc.per_layer_config[i]
    hd = getattr(lc, "head_dim", None) or lc.hidden_size // lc.num_attention_heads
    return lc.num_key_value_heads, hd, hd


def kept(kind, kw, n):
    if kind == "full_attention":
        return n
    return min(n, kw["sliding_window"] - 1)


out = {"transformers": transformers.__version__, "bytes_per_value": BYTES, "lengths": LENGTHS, "configs": {}}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    tc = text_config(path)
    kinds, kwargs = layer_types_and_kwargs(tc)
    rows = []
    for i, (kind, kw) in enumerate(zip(kinds, kwargs)):
        h, dk, dv = widths(tc, i)
        rows.append({"kind": kind, "window": kw.get("sliding_window"), "kv_heads": h, "d_k": dk, "d_v": dv})
    per = [r["kv_heads"] * (r["d_k"] + r["d_v"]) * BYTES for r in rows]
    out["configs"][os.path.basename(path)] = {
        "layers": rows,
        "pattern": [sum(kept(r["kind"], {"sliding_window": r["window"]}, n) * b for r, b in zip(rows, per)) for n in LENGTHS],
        "all_full": [n * sum(per) for n in LENGTHS],
    }
# One line per config, so a change reads as a diff of the configs it touches.
body = ",\n ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in out["configs"].items())
head = json.dumps({k: v for k, v in out.items() if k != "configs"})[:-1]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "kv.json"), "w") as f:
    f.write(head + ', "configs": {\n ' + body + "\n}}\n")
print(len(out["configs"]), "configs")
