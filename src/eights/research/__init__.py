"""research."""
