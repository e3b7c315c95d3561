"""Turn computed states into HTML: themes, templates, prose, charts and page data."""
