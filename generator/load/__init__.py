"""Read and validate the content: site config, schema, front matter, models."""
