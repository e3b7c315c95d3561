"""Reuse between builds: the build cache (one owner, passed in) and the disk cache."""
