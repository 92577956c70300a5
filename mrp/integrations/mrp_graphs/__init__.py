"""The Hugging Face ``evaluate`` module of mrp (``mrp_graphs.py``; load it with ``evaluate.load`` on this
directory, :data:`mrp.integrations.EVALUATE`) and its metric card (README.md)."""
