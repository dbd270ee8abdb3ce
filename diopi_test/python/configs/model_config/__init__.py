"""Case sets of real models: each module lists the operators a model's
training step calls (FUNCTIONS, C names). `--model_name NAME` restricts
gen_data and run_test to them; `--get_model_list` lists the models."""
