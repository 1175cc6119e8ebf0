"""House rules: the builder's form, and a saved set's page, shared, kept by another phone,
and changed."""
