"""Tools around the build: the dev server, the scaffold of `new`, the field reference."""
