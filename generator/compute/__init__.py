"""Compute every state of every page, and the values they hold."""
