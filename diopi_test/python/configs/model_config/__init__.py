"""Model case sets: <model>.yaml files captured from real model code by
`python -m diopi_torch.capture --model <model>` (bridge/torch). They are data,
read by conformance/model_cases.py; `python main.py --get_model_list` lists them."""
