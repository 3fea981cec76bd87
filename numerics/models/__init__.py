"""PyTorch reference models (optional extra ``models``). The only place the toolkit imports torch."""
