"""Live push: a saved round reaches the other phones (NOTIFY/LISTEN across servers, SSE)."""
