"""The rules pages: each variant's rules as the referee applies them, a card looked up, and
Tambouille's."""
