"""The HTTP guards: request bodies, their encoding, rate limits, error pages."""
