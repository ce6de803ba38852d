"""The release's datasheet (README.md)."""
