"""What a build writes: assets, single-file copies, the atomic writer, the zip."""
