"""The release's datasheet (README.md): the figures gathered while the files are written
(`figures`), the collection process (`process`), and the Markdown that says them (`markdown`).
"""
