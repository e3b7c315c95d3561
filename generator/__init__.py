"""A static site generator for interactive, step-by-step machine-learning explainers."""

__version__ = "0.1.0"
