"""Check modules, one per topic; every module here is imported by :func:`validation.registry.discover`."""
