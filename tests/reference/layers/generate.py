"""Regenerates this folder: for each config in ../../../../shared/reference/modern/configs/ (the
project's shared reference), per layer what transformers' own config classes hold after
`PreTrainedConfig.__post_init__` (layer_types, rope_parameters as standardize_rope_params leaves
them, no_rope_layers, sliding_window, attention_chunk_size), read the way each model's attention
module uses them (transformers 5.24.0: Cohere2Attention rotates only on sliding layers,
Llama4TextAttention and SmolLM3Attention where no_rope_layers[i] == 1, SmolLM3 gives a window only
with use_sliding_window; Gemma 3 and 4 pick rope_parameters[layer_type]).

    python -m venv venv && venv/bin/pip install transformers==5.24.0   # no torch needed
    venv/bin/python generate.py CONFIG_DIR
"""
import glob, json, os, sys, warnings

warnings.filterwarnings("ignore")
import transformers
from transformers.models.auto.configuration_auto import CONFIG_MAPPING


def layers(raw):
    raw = json.loads(json.dumps(raw))
    tc = CONFIG_MAPPING[raw.pop("model_type")](**raw).get_text_config()
    mt, n = tc.model_type, tc.num_hidden_layers
    types = getattr(tc, "layer_types", None) or ["full_attention"] * n
    rows = []
    for i in range(n):
        t = types[i]
        if mt in ("gemma3_text", "gemma4_text"):
            rope, params = True, tc.rope_parameters[t]
        elif mt == "cohere2":
            rope, params = t == "sliding_attention", tc.rope_parameters
        elif mt in ("llama4_text", "smollm3"):
            rope, params = bool(tc.no_rope_layers[i]), tc.rope_parameters
        else:
            rope, params = True, tc.rope_parameters
        if t == "sliding_attention":
            w = tc.sliding_window if (mt != "smollm3" or tc.use_sliding_window) else None
            kind = "sliding" if w is not None else "full"
        elif t == "chunked_attention":
            kind, w = "chunked", tc.attention_chunk_size
        else:
            kind, w = "full", None
        rows.append({"layer": i, "attention": kind, "window": w, "rope": rope,
                     "rope_type": params["rope_type"] if rope else None,
                     "rope_theta": float(params["rope_theta"]) if rope else None})
    return rows


for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    name = os.path.basename(path)
    rows = layers(json.load(open(path)))
    head = json.dumps({"config": name, "transformers": transformers.__version__, "num_layers": len(rows)})
    body = ",\n  ".join(json.dumps(r) for r in rows)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), "w") as out:
        out.write(head[:-1] + ', "layers": [\n  ' + body + "\n]}\n")
    print(name, len(rows))
